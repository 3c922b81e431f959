package dev.voiceagent.application.conversation;

import dev.voiceagent.application.shared.UpstreamServiceException;

/**
 * The model's streamed answer broke after some of it came: it is not asked again by the adapter (asking again would
 * repeat what was already said); whoever streamed it may continue from what was said. {@code produced} is the text
 * the stream had given before it broke; the message is the provider's ("The language model failed: the stream from
 * api.openai.com broke: ...").
 */
public class ModelStreamBrokenException extends UpstreamServiceException {

    private final String produced;

    public ModelStreamBrokenException(String message, String produced) {
        super(message);
        this.produced = produced;
    }

    /** The answer's text given before the stream broke. */
    public String produced() {
        return produced;
    }
}
