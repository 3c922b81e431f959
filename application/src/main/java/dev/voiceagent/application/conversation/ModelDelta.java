package dev.voiceagent.application.conversation;

import dev.voiceagent.domain.conversation.ModelReply;
import java.time.Duration;

/**
 * A piece of a streamed model answer: text as it is written, then the whole reply (text, tool calls, usage); and,
 * before any text, word that the provider failed and is asked again after a wait.
 */
public sealed interface ModelDelta {

    /** More of the answer's text. */
    record Text(String delta) implements ModelDelta {
    }

    /** The end: the complete reply, its tool calls assembled from their deltas and the tokens used. */
    record Done(ModelReply reply) implements ModelDelta {
    }

    /**
     * The provider failed before the answer's first words (a 5xx, a 429, a connection refused or reset, no first byte
     * in time), for {@code reason}: try {@code attempt} (2 for the first retry) starts {@code after} this long, so the
     * same turn is answered. Nothing of the answer came before it; a listener may say a filler when the wait is long.
     */
    record Retrying(int attempt, Duration after, String reason) implements ModelDelta {
    }
}
