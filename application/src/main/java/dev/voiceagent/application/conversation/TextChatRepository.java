package dev.voiceagent.application.conversation;

import dev.voiceagent.domain.conversation.TextChatSession;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.domain.webhook.WebhookEvent;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Out-port: text chat sessions. Every write is guarded by the revision it was computed from; a message being
 * answered holds a short claim (a lease, so a crash does not leave the session stuck), so two messages never
 * interleave and a failed turn leaves the session exactly as it was.
 */
public interface TextChatRepository {

    /** The outcome of a claim: claimed with a token, or the revision and whether it is busy. */
    record Claim(String token, int actualRevision, boolean busy) {

        public boolean claimed() {
            return token != null;
        }
    }

    /** A chat whose inactivity timeout has passed. */
    record IdleChat(long organizationId, long workflowId, long runId) {
    }

    /** Stores the run and its session (revision 0) in one transaction. */
    Uni<TextChatRecord> create(WorkflowRun run, TextChatSession session, Map<String, Object> checkpoint, Instant now);

    Uni<Optional<TextChatRecord>> find(long organizationId, long workflowId, long runId);

    /** Claims the session at {@code revision} for {@code lease}, unless it has moved on or is claimed already. */
    Uni<Claim> claim(long runId, int revision, Duration lease, Instant now);

    /**
     * Writes the session and its run if the revision is still {@code expectedRevision} and the session is not
     * claimed by anyone else ({@code token}: this writer's claim, or null); the new revision, or empty. With them,
     * the webhook {@code events} of the change; a {@code RunCompleted} among them is written only if the run was not
     * already complete when this transaction locked it (another path may have completed it meanwhile).
     */
    Uni<Optional<Integer>> save(long runId, int expectedRevision, String token, TextChatSession session,
            Map<String, Object> checkpoint, WorkflowRun run, Instant now, List<WebhookEvent> events);

    /** Names the run's transcript (an object-store key). */
    Uni<Void> attachTranscript(long runId, String key);

    /** Gives a claim up, changing nothing else. */
    Uni<Void> release(long runId, String token);

    /** Open chats whose last activity is older than their workflow's inactivity timeout, oldest first. */
    Uni<List<IdleChat>> idle(Instant now, int limit);
}
