package dev.voiceagent.domain.voice;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class EchoGateTest {

    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");

    @Test
    void theFloorFollowsTheLoudestAgentAudioOfTheLastSecondAndIsGoneBetweenAnswers() {
        EchoGate gate = new EchoGate();
        assertThat(gate.floorDbfs(T0)).isEqualTo(Double.NEGATIVE_INFINITY);
        gate.sent(-20, T0);
        gate.sent(-30, T0.plusMillis(20));
        assertThat(gate.floorDbfs(T0.plusMillis(40))).isEqualTo(-35);
        gate.sent(-10, T0.plusMillis(500));
        assertThat(gate.floorDbfs(T0.plusMillis(520))).isEqualTo(-25);
        assertThat(gate.floorDbfs(T0.plusMillis(1_490))).as("the loud frame is still within the span").isEqualTo(-25);
        assertThat(gate.floorDbfs(T0.plusMillis(1_600))).isEqualTo(Double.NEGATIVE_INFINITY);
    }
}
