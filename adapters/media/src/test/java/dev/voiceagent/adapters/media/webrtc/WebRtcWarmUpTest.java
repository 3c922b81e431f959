package dev.voiceagent.adapters.media.webrtc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WebRtcWarmUpTest {

    @Test
    void theSelfCheckPassesAndSaysHowLongItTook() throws Exception {
        WebRtcWarmUp warmUp = new WebRtcWarmUp();
        assertThat(warmUp.selfCheck()).isTrue();
        assertThat(warmUp.checked().get()).isNotNegative();
    }

    @Test
    void theExerciseRunsEverySecondOfAudioAskedForThroughTheCodecAndSrtp() throws Exception {
        long later = System.nanoTime() + 60_000_000_000L;
        assertThat(new WebRtcWarmUp().exercise(1, 2, later)).as("50 frames a second").isEqualTo(100);
    }

    @Test
    void theExerciseStopsAtItsDeadline() throws Exception {
        long started = System.nanoTime();
        assertThat(new WebRtcWarmUp().exercise(50, 600, started)).as("nothing run past the deadline").isZero();
        assertThat((System.nanoTime() - started) / 1_000_000).as("no handshake either").isLessThan(2_000);
    }
}
