package dev.voiceagent.domain.conversation;

import java.util.List;

/** What the model is asked: the messages (the system prompt first) and the functions it may call. */
public record ModelRequest(List<ChatMessage> messages, List<FunctionSpec> functions) {

    public ModelRequest {
        messages = List.copyOf(messages);
        functions = List.copyOf(functions);
    }

    /** The system prompt, or null when the first message is not one. */
    public String systemPrompt() {
        return !messages.isEmpty() && messages.getFirst().role() == ChatMessage.Role.SYSTEM
                ? messages.getFirst().content() : null;
    }
}
