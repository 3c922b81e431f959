package dev.voiceagent.application.voice.runtime.port.out;

import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.domain.audio.AudioFormat;
import java.util.Map;

/**
 * The call's media as its transport carries it (a carrier's media stream, a browser's WebSocket or WebRTC peer), handed
 * by the driving adapter to the session: what the session sends to the caller. What the caller sends arrives at the
 * session as its {@link MediaInput}.
 * Called on the call's loop only; never blocks.
 */
public interface MediaChannel {

    /** The audio's format both ways (μ-law 8 kHz on the phone). */
    AudioFormat format();

    /** One frame of the agent's audio for the caller, in {@link #format()}. */
    void play(byte[] frame);

    /** A named mark after the audio sent so far: the carrier echoes it when that audio was played. */
    void mark(String name);

    /** Drop the audio the carrier holds and has not played (a barge-in); its marks come back at once. */
    void clear();

    /** End the media (the carrier then ends the call); {@code reason} is for the log. */
    void close(String reason);

    /**
     * Whether the carrier streams the call again when this stream ends without the call ending (Twilio told to
     * {@code <Redirect>} after its {@code <Connect><Stream>}): a call this replica lets go is then taken over by another.
     */
    default boolean resumable() {
        return false;
    }

    /**
     * One of the call's real-time feedback events as it is logged ({type, timestamp, turn, payload}, the rtf-* types
     * of the run's logs), for a channel whose other end shows them (a browser); carriers ignore them.
     */
    default void feedback(Map<String, Object> event) {
    }
}
