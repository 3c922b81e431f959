package dev.voiceagent.application.conversation;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.Map;

/** The text chat's operations, one interface each. */
public final class TextChatUseCases {

    private TextChatUseCases() {
    }

    public interface CreateTextChatUseCase {
        /** A new session on the workflow's draft (or published version); the opening turn has run. */
        Uni<TextChatRecord> create(Principal principal, long workflowId, String name, Map<String, Object> initialContext,
                Map<String, Object> annotations);
    }

    public interface GetTextChatUseCase {
        Uni<TextChatRecord> get(Principal principal, long workflowId, long runId);
    }

    public interface SendTextChatMessageUseCase {
        /** 409 when expectedRevision is not the session's, or another message is being answered. */
        Uni<TextChatRecord> send(Principal principal, long workflowId, long runId, String text, Integer expectedRevision);
    }

    public interface EndTextChatUseCase {
        Uni<TextChatRecord> end(Principal principal, long workflowId, long runId, Integer expectedRevision);
    }

    public interface RewindTextChatUseCase {
        Uni<TextChatRecord> rewind(Principal principal, long workflowId, long runId, String cursorTurnId,
                Integer expectedRevision);
    }

    public interface CloseIdleTextChatsUseCase {
        /** Ends the chats nobody wrote in for their inactivity timeout; how many were ended. */
        Uni<Integer> closeIdle();
    }
}
