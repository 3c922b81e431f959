package dev.voiceagent.domain.audio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import org.junit.jupiter.api.Test;

class AmbientLoopTest {

    @Test
    void theRoomToneIsQuietSteadyNoiseTheSameEveryCall() {
        short[] tone = AmbientLoop.roomTone(8_000);
        assertThat(tone).hasSize(8_000 * AmbientLoop.ROOM_TONE_SECONDS).isEqualTo(AmbientLoop.roomTone(8_000));
        assertThat(Loudness.dbfs(tone)).isBetween(-27.0, -25.0);
        // steady: every half second is within a few dB of the whole (no silence, no bursts)
        for (int at = 0; at + 4_000 <= tone.length; at += 4_000) {
            short[] half = java.util.Arrays.copyOfRange(tone, at, at + 4_000);
            assertThat(Loudness.dbfs(half)).as("at %d", at).isBetween(-33.0, -20.0);
        }
        assertThat(AmbientLoop.roomTone(16_000)).hasSize(16_000 * AmbientLoop.ROOM_TONE_SECONDS);
    }

    @Test
    void theSoundPlaysAtItsVolumeAndLoopsWithoutASeam() {
        int rate = 8_000;
        short[] ramp = new short[rate]; // one second rising from 0 to 10,000: a seam would be a jump
        for (int i = 0; i < ramp.length; i++) {
            ramp[i] = (short) (i * 10_000 / ramp.length);
        }
        AmbientLoop loop = new AmbientLoop(ramp, rate, 0.5);
        int fade = rate * AmbientLoop.CROSSFADE_MS / 1000;
        short[] played = loop.next(3 * (ramp.length - fade));
        assertThat(played[0]).isEqualTo((short) Math.round(ramp[fade] * 0.5));
        int biggestStep = 0;
        for (int i = 1; i < played.length; i++) {
            biggestStep = Math.max(biggestStep, Math.abs(played[i] - played[i - 1]));
        }
        // the ramp's own step is 0.6 per sample at half volume; the cross-fade back down spreads 5,000 over 1,600
        assertThat(biggestStep).as("no click where the loop starts again").isLessThanOrEqualTo(5);
        assertThat(played[ramp.length - fade]).as("the loop repeats").isEqualTo(played[0]);
    }

    @Test
    void mixedUnderTheVoiceItAddsAndClipsAndRunsOnFromWhereItWas() {
        short[] constant = new short[4_000];
        java.util.Arrays.fill(constant, (short) 1_000);
        AmbientLoop loop = new AmbientLoop(constant, 8_000, 0.3);
        short[] voice = {0, 100, -100, Short.MAX_VALUE, Short.MIN_VALUE};
        loop.mixInto(voice);
        assertThat(voice).containsExactly((short) 300, (short) 400, (short) 200, Short.MAX_VALUE,
                (short) (Short.MIN_VALUE + 300));
        assertThat(new AmbientLoop(constant, 8_000, 0).next(3)).containsOnly((short) 0);
    }

    @Test
    void aVolumeOutOfRangeOrASoundTooShortIsRefused() {
        assertThatThrownBy(() -> new AmbientLoop(new short[8_000], 8_000, 1.2))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("volume");
        assertThatThrownBy(() -> new AmbientLoop(new short[8_000], 8_000, Double.NaN))
                .isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> new AmbientLoop(new short[100], 8_000, 0.3))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("at least 400 ms");
    }
}
