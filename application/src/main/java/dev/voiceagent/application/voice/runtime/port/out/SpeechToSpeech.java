package dev.voiceagent.application.voice.runtime.port.out;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.ToolCall;
import java.util.List;

/**
 * Out-port: a speech-to-speech model (OpenAI's Realtime API and the models like it: Azure OpenAI's, Grok, Gemini Live,
 * Ultravox; the reference calls such models realtime) that hears the caller, decides when the caller's
 * turn ended (its own voice activity) and answers in audio, while the agent's engine keeps the graph: it sets the
 * instructions and functions of the node the call is at, answers the function calls and asks for the next response.
 * One stream per call; what is sent before the provider answered is held. The listener may be called on any thread
 * (the session moves it to the call's loop).
 */
public interface SpeechToSpeech {

    /**
     * What the model is told for the node the call is at: its instructions, the functions it may call, and whether
     * the caller may talk over it (a node that does not allow interruptions keeps talking).
     */
    record Setup(String instructions, List<FunctionSpec> functions, boolean interruptible) {

        public Setup {
            functions = List.copyOf(functions);
        }
    }

    /**
     * A response as it ended: {@code status} completed, cancelled (the caller cut in), incomplete or failed; the text
     * of its audio, the functions it called, the tokens it used.
     */
    record Response(String id, String status, String text, List<ToolCall> calls, TokenUsage usage) {

        public Response {
            calls = List.copyOf(calls);
        }
    }

    /** What the model does. */
    interface Listener {

        /** Its voice activity heard the caller start speaking. */
        void speechStarted();

        /** ... and stop: the caller's turn is committed as the item {@code itemId}. */
        void speechStopped(String itemId);

        /** The caller's turn {@code itemId}, transcribed (after the model may already have answered it). */
        void heard(String itemId, String transcript);

        /** A response began: the model's own (the caller's turn ended) or one asked for. */
        void responseStarted(String responseId);

        /** Audio of the response's spoken item {@code itemId}, in the stream's format. */
        void audio(String responseId, String itemId, byte[] audio);

        /** What the response's audio says, as it is written (ahead of or beside its audio). */
        void transcript(String responseId, String delta);

        /** The response ended. */
        void responseDone(Response response);

        /** Something the model refused that does not end the call (logged). */
        void warning(String message);

        /** The stream failed or the provider refused it; nothing more comes. */
        void failed(String message);
    }

    /** One call's model. */
    interface Stream {

        /** The node's instructions and functions (sent at start and at every transition). */
        void configure(Setup setup);

        /** Caller audio in the format the stream was opened with. */
        void audio(byte[] frame);

        /**
         * Asks for a response now; {@code instructions}, when not null, replace the session's for this response only
         * (a greeting to say word for word).
         */
        void respond(String instructions);

        /** The result of the function call {@code callId}, for the model's next response. */
        void answer(String callId, String output);

        /** Something the agent said that the model did not (a greeting played from a recording): its context. */
        void said(String text);

        /** The caller heard only {@code audioEndMs} of the item's audio before cutting in: the rest is forgotten. */
        void truncate(String itemId, long audioEndMs);

        /** Seconds of the caller's audio sent (usage). */
        double seconds();

        void close();
    }

    /**
     * Opens a stream; a model this runtime cannot speak to is an {@link UnsupportedSpeechProvider} thrown here, before
     * anything is sent.
     */
    Stream open(ModelEndpoint endpoint, AudioFormat format, Listener listener);
}
