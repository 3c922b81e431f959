package dev.voiceagent.adapters.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.adapters.simulator.ear.PocketSphinxEar;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.model.ModelService;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class SimulatorSpeechTest {

    private static final FreeTts FREE_TTS = new FreeTts();
    private final SpokenLines lines = new SpokenLines();
    private final SimulatorSpeech speech = new SimulatorSpeech(FREE_TTS, lines);
    private static final ModelEndpoint STT = new ModelEndpoint(ModelService.STT, "simulator", "simulator", null,
            List.of(), Map.of("provider", "simulator"), false);
    private static final ModelEndpoint TTS = new ModelEndpoint(ModelService.TTS, "simulator", "simulator", null,
            List.of(), Map.of("provider", "simulator"), false);

    @AfterAll
    static void close() {
        FREE_TTS.close();
    }

    private static byte[] callee(String text) throws Exception {
        return FREE_TTS.audio(FreeTts.Speaker.CALLEE, text, AudioFormat.MULAW_8K).get(30, TimeUnit.SECONDS);
    }

    @Test
    void theOracleReportsTheCalleesLineWhenAskedToFinalizeAndNothingElse() throws Exception {
        byte[] booking = callee("I would like to book a cleaning on Tuesday.");
        byte[] cancel = callee("Please cancel my appointment.");
        lines.remember("I would like to book a cleaning on Tuesday.", booking);
        lines.remember("Please cancel my appointment.", cancel);
        List<String> heard = new ArrayList<>();
        SpeechToText.Stream stream = speech.open(STT, AudioFormat.MULAW_8K, listener(heard));

        // in pieces that do not follow the 20 ms frames: the oracle re-frames from the stream's start
        for (int at = 0; at < cancel.length; at += 250) {
            stream.audio(Arrays.copyOfRange(cancel, at, Math.min(cancel.length, at + 250)));
        }
        assertThat(heard).containsExactly("interim:Please cancel my appointment.");
        stream.finalizeNow();
        assertThat(heard).last().isEqualTo("final:Please cancel my appointment.");
        assertThat(stream.seconds()).isEqualTo(cancel.length / 8_000.0);

        heard.clear();
        stream.finalizeNow(); // nothing since: an empty final, as Deepgram answers a Finalize over silence
        assertThat(heard).containsExactly("final:");

        heard.clear(); // a pause mid-line: the line is settled only once its audio ended
        int half = booking.length / 2 / 160 * 160;
        stream.audio(Arrays.copyOfRange(booking, 0, half));
        stream.finalizeNow();
        stream.audio(Arrays.copyOfRange(booking, half, booking.length));
        stream.finalizeNow();
        assertThat(heard).containsExactly("interim:I would like to book a cleaning on Tuesday.", "final:",
                "final:I would like to book a cleaning on Tuesday.");

        heard.clear(); // speech the callee never said (the agent's own voice) is not a line
        byte[] unknown = FREE_TTS.audio(FreeTts.Speaker.AGENT, "Something nobody scripted.", AudioFormat.MULAW_8K)
                .get(30, TimeUnit.SECONDS);
        stream.audio(unknown);
        stream.finalizeNow();
        assertThat(heard).containsExactly("final:" + SimulatorSpeech.INAUDIBLE);
    }

    @Test
    void theOracleHearsOnlyPhoneAudioAndABrowsersPersonIsHeardByTheLocalEarOrRefusedWithHowToGetIt() {
        if (PocketSphinxEar.available()) {
            assertThat(speech.open(STT, AudioFormat.PCM_16K, listener(new ArrayList<>()))).isNotNull();
        } else {
            assertThatThrownBy(() -> speech.open(STT, AudioFormat.PCM_16K, listener(new ArrayList<>())))
                    .isInstanceOf(UnsupportedSpeechProvider.class)
                    .hasMessageContaining("apt-get install pocketsphinx pocketsphinx-en-us");
        }
    }

    @Test
    void theVoiceSpeaksEachUtteranceInPiecesAndACancelledOneIsNeverHeard() throws Exception {
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        List<String> events = new ArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        TextToSpeech.Stream voice = speech.open(TTS, AudioFormat.MULAW_8K, new TextToSpeech.Listener() {
            @Override
            public synchronized void audio(String utterance, byte[] audio) {
                events.add("audio:" + utterance + ":" + audio.length);
                if (utterance.equals("u1")) {
                    first.writeBytes(audio);
                }
            }

            @Override
            public synchronized void done(String utterance) {
                events.add("done:" + utterance);
                if (utterance.equals("u3")) {
                    done.complete(null);
                }
            }

            @Override
            public void failed(String message) {
                done.completeExceptionally(new AssertionError(message));
            }
        });
        voice.speak("u1", "Hello, this is the dental office.");
        voice.speak("u2", "This sentence is cut off.");
        voice.cancel("u2");
        voice.speak("u3", "Goodbye.");
        done.get(30, TimeUnit.SECONDS);

        assertThat(events).noneMatch(e -> e.contains("u2"));
        assertThat(events).contains("done:u1").last().isEqualTo("done:u3");
        assertThat(events.stream().filter(e -> e.startsWith("audio:u1")))
                .allMatch(e -> Integer.parseInt(e.substring(e.lastIndexOf(':') + 1)) <= 800);
        byte[] audio = first.toByteArray();
        assertThat(audio.length % 160).isZero();
        assertThat(audio.length / 8).as("ms of speech").isBetween(1_000, 5_000);
        assertThat(Loudness.dbfs(G711.decode(audio))).as("real speech, not silence").isGreaterThan(-35);
        assertThat(voice.characters()).isEqualTo("Hello, this is the dental office.".length()
                + "This sentence is cut off.".length() + "Goodbye.".length());
    }

    private static SpeechToText.Listener listener(List<String> heard) {
        return new SpeechToText.Listener() {
            @Override
            public void transcript(String text, boolean isFinal) {
                heard.add((isFinal ? "final:" : "interim:") + text);
            }

            @Override
            public void failed(String message) {
                heard.add("failed:" + message);
            }
        };
    }
}
