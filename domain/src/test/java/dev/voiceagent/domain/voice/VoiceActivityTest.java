package dev.voiceagent.domain.voice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The voice-activity rule on 32 ms windows, fed with the energy detector's numbers for synthetic audio. */
class VoiceActivityTest {

    private static final Duration WINDOW = Duration.ofMillis(32);
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    private final VoiceActivity vad = new VoiceActivity(VoiceActivity.Params.DEFAULT, WINDOW);
    private final List<VoiceEvent> events = new ArrayList<>();
    private int windowsFed;

    private static short[] tone(double amplitude) {
        short[] out = new short[256];
        for (int i = 0; i < out.length; i++) {
            out[i] = (short) Math.round(amplitude * Math.sin(2 * Math.PI * 440 * i / 8000.0));
        }
        return out;
    }

    /** Feeds {@code millis} of the window's audio, one 32 ms window at a time, on a virtual clock. */
    private void feed(short[] window, int millis) {
        for (int i = 0; i < millis / 32; i++) {
            Instant at = T0.plus(WINDOW.multipliedBy(windowsFed++));
            vad.window(Loudness.speechConfidence(window), Loudness.volume(window), at).ifPresent(events::add);
        }
    }

    private static final short[] SILENCE = new short[256];
    private static final short[] VOICE = tone(6_000); // about -18 dBFS, a voice at telephone level
    private static final short[] HISS = tone(60); // about -58 dBFS

    @Test
    void loudnessMapsLevelsOntoPipecatsScale() {
        assertThat(Loudness.dbfs(SILENCE)).isEqualTo(Loudness.SILENCE_DBFS);
        assertThat(Loudness.dbfs(tone(32_767))).isCloseTo(-3.01, org.assertj.core.data.Offset.offset(0.1));
        assertThat(Loudness.volume(tone(32_767))).isEqualTo(1.0);
        assertThat(Loudness.volume(SILENCE)).isZero();
        // -50 dBFS is pipecat's default min_volume of 0.6
        double fiftyDown = 32_768 * Math.sqrt(2) * Math.pow(10, -50 / 20.0);
        assertThat(Loudness.volume(tone(fiftyDown))).isCloseTo(0.6, org.assertj.core.data.Offset.offset(0.01));
        assertThat(Loudness.speechConfidence(VOICE)).isEqualTo(1.0);
        assertThat(Loudness.speechConfidence(HISS)).isZero();
    }

    @Test
    void speechStartsAfterTheStartDelayAndStopsAfterTheStopDelay() {
        feed(SILENCE, 320);
        assertThat(events).isEmpty();
        feed(VOICE, 1_000);
        assertThat(events).hasSize(1).first().isInstanceOf(VoiceEvent.SpeechStarted.class);
        // the window's own volume (no smoothing to wait for): seven voiced windows make the 0.2 s start
        Instant started = events.get(0).at();
        assertThat(Duration.between(T0.plusMillis(320), started)).isEqualTo(WINDOW.multipliedBy(6));
        assertThat(vad.state()).isEqualTo(VoiceActivity.State.SPEAKING);

        int before = windowsFed;
        feed(SILENCE, 640);
        assertThat(events).hasSize(2).last().isInstanceOf(VoiceEvent.SpeechStopped.class);
        Duration stopAfter = Duration.between(T0.plus(WINDOW.multipliedBy(before)), events.get(1).at());
        assertThat(stopAfter).as("seven silent windows: 0.2 s rounded up to 32 ms windows, less the first")
                .isEqualTo(WINDOW.multipliedBy(6));
        assertThat(vad.state()).isEqualTo(VoiceActivity.State.QUIET);
    }

    @Test
    void aCoughShorterThanTheStartDelayAndABreathShorterThanTheStopDelayChangeNothing() {
        feed(SILENCE, 320);
        feed(VOICE, 160); // loud enough, but shorter than the start delay
        feed(SILENCE, 640);
        assertThat(events).as("a short burst is not speech").isEmpty();

        feed(VOICE, 1_000);
        assertThat(events).hasSize(1);
        feed(SILENCE, 128); // a breath between words
        feed(VOICE, 640);
        assertThat(events).as("a pause shorter than the stop delay does not end the speech").hasSize(1);
        assertThat(vad.state()).isEqualTo(VoiceActivity.State.SPEAKING);
    }

    @Test
    void aConfidentDetectorOnAQuietLineIsNotSpeechAndNeitherIsLoudNoiseTheDetectorRejects() {
        for (int i = 0; i < 60; i++) {
            vad.window(0.95, 0.3, T0.plusMillis(32L * i)).ifPresent(events::add);
        }
        assertThat(events).as("below min_volume").isEmpty();
        for (int i = 60; i < 120; i++) {
            vad.window(0.2, 1.0, T0.plusMillis(32L * i)).ifPresent(events::add);
        }
        assertThat(events).as("below the confidence").isEmpty();
        assertThat(vad.state()).isEqualTo(VoiceActivity.State.QUIET);
    }

    @Test
    void zeroDelaysActOnTheFirstWindowAndBadThresholdsAreRefused() {
        VoiceActivity eager = new VoiceActivity(new VoiceActivity.Params(0.5, Duration.ZERO, Duration.ZERO, 0),
                WINDOW);
        assertThat(eager.window(0.9, 0, T0)).containsInstanceOf(VoiceEvent.SpeechStarted.class);
        assertThat(eager.window(0.1, 0, T0.plusMillis(32))).containsInstanceOf(VoiceEvent.SpeechStopped.class);
        assertThatThrownBy(() -> new VoiceActivity.Params(1.5, Duration.ZERO, Duration.ZERO, 0))
                .isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> new VoiceActivity(VoiceActivity.Params.DEFAULT, Duration.ZERO))
                .isInstanceOf(DomainRuleViolation.class);
    }
}
