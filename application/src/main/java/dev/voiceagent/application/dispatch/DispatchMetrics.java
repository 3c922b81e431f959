package dev.voiceagent.application.dispatch;

import dev.voiceagent.domain.telephony.CallStatus;
import java.time.Duration;

/** Out-port: what the engine reports to monitoring. Must not block. */
public interface DispatchMetrics {

    DispatchMetrics NONE = new DispatchMetrics() {
    };

    default void dialsStarted(int count) {
    }

    default void dialFailed() {
    }

    default void outcome(CallStatus status) {
    }

    default void tick(Duration took) {
    }

    default void breakerTripped() {
    }

    default void rowsImported(int count) {
    }

    default void activeCalls(long thisReplica) {
    }
}
