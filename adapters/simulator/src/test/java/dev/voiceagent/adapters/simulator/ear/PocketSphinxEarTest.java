package dev.voiceagent.adapters.simulator.ear;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.simulator.FreeTts;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The local ear on Debian's pocketsphinx, as installed by .ci/install-pocketsphinx (skipped where it is not, unless
 * VOICEAGENT_TEST_POCKETSPHINX=required): a sentence said by FreeTTS, streamed as a call streams it, is heard when the
 * caller stops; the finals come in the order spoken.
 */
@EnabledIf("installed")
class PocketSphinxEarTest {

    private static final FreeTts FREE_TTS = new FreeTts();

    static boolean installed() {
        boolean available = PocketSphinxEar.available();
        if (!available && "required".equals(System.getenv("VOICEAGENT_TEST_POCKETSPHINX"))) {
            throw new IllegalStateException("pocketsphinx is required but not installed: run .ci/install-pocketsphinx");
        }
        return available;
    }

    /** Streams {@code text} in 20 ms frames of {@code format}. */
    private static void say(SpeechToText.Stream ear, String text, AudioFormat format) throws Exception {
        byte[] audio = FREE_TTS.audio(FreeTts.Speaker.AGENT, text, format).get(30, TimeUnit.SECONDS);
        int frame = format.bytes(20);
        for (int at = 0; at < audio.length; at += frame) {
            byte[] piece = new byte[Math.min(frame, audio.length - at)];
            System.arraycopy(audio, at, piece, 0, piece.length);
            ear.audio(piece);
        }
        ear.audio(new byte[format.bytes(300)]); // a pause
    }

    @Test
    void aPersonsSentenceInABrowsersPcmIsHeardWhenTheyStopAndTheFinalsComeInOrder() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        SpeechToText.Listener listener = new SpeechToText.Listener() {
            @Override
            public void transcript(String text, boolean isFinal) {
                heard.add((isFinal ? "final:" : "interim:") + text);
            }

            @Override
            public void failed(String message) {
                heard.add("failed:" + message);
            }
        };
        SpeechToText.Stream browser = PocketSphinxEar.open(AudioFormat.PCM_16K, listener);
        say(browser, "I would like to cancel my appointment.", AudioFormat.PCM_16K);
        browser.finalizeNow();
        say(browser, "Where is my order?", AudioFormat.PCM_16K);
        browser.finalizeNow();
        browser.finalizeNow(); // nothing said since: an empty final
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (heard.size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(heard).containsExactly("final:i would like to cancel my appointment", "final:where is my order",
                "final:");
        assertThat(browser.seconds()).isGreaterThan(2.0);
        browser.close();

    }
}
