package dev.voiceagent.application.conversation;

import dev.voiceagent.domain.conversation.ModelReply;

/** A piece of a streamed model answer: text as it is written, then the whole reply (text, tool calls, usage). */
public sealed interface ModelDelta {

    /** More of the answer's text. */
    record Text(String delta) implements ModelDelta {
    }

    /** The end: the complete reply, its tool calls assembled from their deltas and the tokens used. */
    record Done(ModelReply reply) implements ModelDelta {
    }
}
