package dev.voiceagent.application.conversation;

import dev.voiceagent.domain.conversation.TextChatSession;
import dev.voiceagent.domain.workflow.WorkflowRun;
import java.time.Instant;
import java.util.Map;

/** A text chat as stored: its run, its turns, the checkpoint it resumes from and the revision guarding writes. */
public record TextChatRecord(WorkflowRun run, TextChatSession session, Map<String, Object> checkpoint, int revision,
        Instant createdAt, Instant updatedAt, boolean busy) {
}
