package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * What the speech provider tests share: a speech-to-text listener that records what it heard ({@link Heard}) and the
 * poll with a deadline they wait with ({@link #await}). A text-to-speech listener is {@link SpeechHeard}.
 */
final class SpeechTestKit {

    private SpeechTestKit() {
    }

    /** What a speech-to-text listener heard: "interim:", "final:" and "failed:" events in order. */
    static final class Heard implements SpeechToText.Listener {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void transcript(String text, boolean isFinal) {
            events.add((isFinal ? "final:" : "interim:") + text);
        }

        @Override
        public void failed(String message) {
            events.add("failed:" + message);
        }

        List<String> finals() {
            return events.stream().filter(e -> !e.startsWith("interim:")).toList();
        }
    }

    /** Polls {@code condition} every 20 ms for at most 5 s; then it must hold. */
    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        for (int i = 0; i < 250 && !condition.getAsBoolean(); i++) {
            Thread.sleep(20);
        }
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }
}
