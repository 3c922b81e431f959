package dev.voiceagent.domain.workflow;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * A run's trace id (W3C: 32 lowercase hex digits, not all zero), derived from the run alone: every replica that
 * serves the run (a call that moved, each turn of a text chat) traces into the same trace, and the run's page shows it
 * without storing it. The run's creation time is part of it, so runs of two installations sharing a collector do not
 * meet (its whole seconds: the database keeps microseconds, a run not yet read back has nanoseconds).
 */
public final class RunTraceId {

    private RunTraceId() {
    }

    public static String of(long runId, Instant createdAt) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(("voiceagent-run:" + runId + ":"
                    + createdAt.getEpochSecond()).getBytes(StandardCharsets.UTF_8));
            byte[] id = new byte[16];
            System.arraycopy(digest, 0, id, 0, 16);
            id[0] = (byte) (id[0] | 0x01 << 4); // never all zeros
            return HexFormat.of().formatHex(id);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    public static String of(WorkflowRun run) {
        return run.id() == null ? null : of(run.id(), run.createdAt());
    }
}
