package dev.voiceagent.adapters.media;

import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;

/**
 * What the media sockets' transport refuses: a frame larger than the server takes (64 KB; Netty refuses it as it reads
 * its header) or a message of frames larger than it takes (256 KB; Vert.x drops it). Either way the call's media is
 * broken: the socket is closed with 1009 (message too big) and the call ends with the reason.
 */
final class MediaLimits {

    private MediaLimits() {
    }

    /** Why the transport refused what the other end sent, or null when {@code failure} is something else. */
    static String exceeded(Throwable failure) {
        if (failure instanceof CorruptedWebSocketFrameException) {
            return "frame too big: " + failure.getMessage();
        }
        if (failure instanceof IllegalStateException && String.valueOf(failure.getMessage()).contains("max message")) {
            return "message too big: " + failure.getMessage();
        }
        return null;
    }
}
