package dev.voiceagent.application.embed;

/** A message to an embedded chat that has ended: 400 {"detail": {"code": "chat_completed", "message": ...}}. */
public class ConversationEndedException extends RuntimeException {

    public static final String CODE = "chat_completed";

    public ConversationEndedException() {
        super("Conversation has ended", null, false, false);
    }
}
