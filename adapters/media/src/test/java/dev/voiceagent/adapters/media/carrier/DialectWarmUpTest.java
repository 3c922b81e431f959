package dev.voiceagent.adapters.media.carrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.audio.AudioFormat;
import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class DialectWarmUpTest {

    @Test
    void everyCarrierTheRouteSpeaksHasASampleItTakesAndEachOfItsFramesIsReadAsAudio() throws IOException {
        assertThat(DialectWarmUp.SAMPLES.keySet()).as("a sample per dialect, no more")
                .containsExactlyInAnyOrderElementsOf(CarrierDialects.ALL.stream().map(d -> d.get().carrier()).toList());
        assertThat(DialectWarmUp.exercise(CarrierDialects.ALL, 300)).isEqualTo(300 * CarrierDialects.ALL.size());
    }

    @Test
    void aDialectWithoutASampleOrOneThatRefusesItsSampleStopsTheWarmUpSayingWhich() {
        Supplier<CarrierDialect> unknown = () -> deaf("Acme");
        assertThatThrownBy(() -> DialectWarmUp.exercise(List.of(unknown), 10))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no warm-up sample of Acme's media");
        Supplier<CarrierDialect> deaf = () -> deaf("Twilio");
        assertThatThrownBy(() -> DialectWarmUp.exercise(List.of(deaf), 10))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Twilio did not take the warm-up's start");
    }

    /** A dialect of {@code carrier} that reads nothing. */
    private static CarrierDialect deaf(String carrier) {
        return new CarrierDialect() {
            @Override
            public String carrier() {
                return carrier;
            }

            @Override
            public AudioFormat format() {
                return AudioFormat.MULAW_8K;
            }

            @Override
            public CarrierEvent read(String text) {
                return CarrierEvent.IGNORED;
            }

            @Override
            public CarrierFrame media(byte[] audio) {
                return null;
            }

            @Override
            public CarrierFrame mark(String name) {
                return null;
            }

            @Override
            public CarrierFrame clear() {
                return null;
            }
        };
    }
}
