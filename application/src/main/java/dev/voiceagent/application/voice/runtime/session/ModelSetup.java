package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.ModelRequest;
import java.util.List;
import java.util.Map;

/**
 * What a speech-to-speech model is told so that the agent's engine keeps the graph: the instructions, functions and
 * interruptibility of the node the call is at (sent when they change: at the start and at each transition), the
 * results of the functions it called, and the instructions of a response that must say the engine's own words.
 */
final class ModelSetup {

    /** How a line is said word for word (a greeting, a transition's speech, a tool's last words). */
    static final String SAY_EXACTLY = "Say exactly the following, word for word, in the conversation's language,"
            + " and nothing else: ";

    private final AgentEngine engine;
    private SpeechToSpeech.Stream model;
    private SpeechToSpeech.Setup configured;

    ModelSetup(AgentEngine engine) {
        this.engine = engine;
    }

    void model(SpeechToSpeech.Stream stream) {
        this.model = stream;
    }

    /** The node's instructions and functions to the model, when they are not what it has already. */
    void node(String nodeId, Map<String, Object> gathered) {
        send(new SpeechToSpeech.Setup(engine.systemPrompt(nodeId, gathered), engine.functions(nodeId),
                engine.interruptible(nodeId)));
    }

    /**
     * The engine asks the model: the node's setup goes out if it changed (a transition), then the results of the
     * functions called since the model last spoke. Returns the instructions of the response to ask for: the session's
     * own (null), or theirs with {@code preface} to be said first, word for word.
     */
    String ask(ModelRequest request, boolean interruptible, String preface) {
        List<ChatMessage> messages = request.messages();
        String instructions = messages.isEmpty() ? "" : messages.getFirst().content();
        SpeechToSpeech.Setup setup = new SpeechToSpeech.Setup(instructions == null ? "" : instructions,
                request.functions(), interruptible);
        send(setup);
        int lastAssistant = -1;
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == ChatMessage.Role.ASSISTANT) {
                lastAssistant = i;
                break;
            }
        }
        for (int i = lastAssistant + 1; i < messages.size(); i++) {
            ChatMessage m = messages.get(i);
            if (lastAssistant >= 0 && m.role() == ChatMessage.Role.TOOL) {
                model.answer(m.toolCallId(), m.content());
            }
        }
        return preface == null ? null : setup.instructions() + "\n\nBegin your reply by saying exactly: "
                + quoted(preface);
    }

    /** The instructions of a response that says {@code line} and nothing else. */
    static String sayExactly(String line) {
        return SAY_EXACTLY + quoted(line);
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\"", "'") + "\"";
    }

    private void send(SpeechToSpeech.Setup setup) {
        if (!setup.equals(configured)) {
            configured = setup;
            model.configure(setup);
        }
    }
}
