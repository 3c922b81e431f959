package dev.voiceagent.application.voice.runtime.port.in;

import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
/**
 * What the carrier sends the call's session, called by the media adapter on the call's loop: the counterpart of
 * {@link MediaChannel}.
 */
public interface MediaInput {

    /** A frame of the caller's audio, in the channel's format. */
    void audio(byte[] frame);

    /** A key the caller pressed. */
    void dtmf(String digit);

    /** The carrier played the agent's audio up to this mark. */
    void marked(String name);

    /** The carrier's media stopped (the caller hung up, or the socket closed). */
    void stopped();

    /**
     * The socket closed without the carrier saying the media stopped (a network break, this replica's socket torn
     * down): where the carrier streams the call again ({@link MediaChannel#resumable()}), the call is let go for
     * another socket to take over; otherwise it is a hang-up.
     */
    default void lost() {
        stopped();
    }

    /**
     * The media broke beyond repair (the transport refused what the other end sent, e.g. a frame too large): the call
     * ends at once with a pipeline error, {@code why} on the run.
     */
    default void broken(String why) {
        stopped();
    }
}
