package dev.voiceagent.adapters.media.carrier;

import dev.voiceagent.domain.audio.AudioFormat;
import java.io.IOException;
import java.util.Optional;

/**
 * One call's media in one carrier's protocol over the media WebSocket (pipecat keeps the same seam as one serializer
 * per carrier): what the carrier sends, read into {@link CarrierEvent}s; what the session sends, written as the
 * carrier's {@link CarrierFrame}s; the audio's format both ways. The socket ({@code CarrierMediaSocket}) knows no
 * carrier: it hands each message to the call's dialect and acts on the event.
 * <p>
 * One instance per call, used on the call's loop only (the call's state lives here: its stream id, the last sequence
 * number played in, the caller's encoding). Until its own start message a dialect reads nothing but that start
 * ({@link CarrierEvent.Start}, or {@link CarrierEvent.Refused} for a start it cannot take) and ignores the rest, so the
 * socket offers a call's first messages to a fresh instance of every carrier's dialect ({@link CarrierDialects}) and
 * keeps the one that knows the start, as pipecat's {@code parse_telephony_websocket} chooses its serializer. After the
 * start, each message is read once, in one pass.
 */
public interface CarrierDialect {

    /** The carrier's name, for the log. */
    String carrier();

    /**
     * The audio's format both ways once started: what {@link CarrierEvent.Audio} holds (already decoded with the
     * carrier's own rules, e.g. Telnyx's A-law turned into μ-law) and what {@link #media} takes.
     */
    AudioFormat format();

    /**
     * One text message of the carrier.
     *
     * @return what it says; {@link CarrierEvent#IGNORED} for what the session need not hear
     * @throws IOException a message that cannot be read (not the carrier's JSON)
     * @throws IllegalArgumentException a payload that cannot be decoded (not base64)
     */
    CarrierEvent read(String text) throws IOException;

    /**
     * One binary message of the carrier: audio on carriers that send it raw (Vonage's 16-bit PCM, Asterisk's
     * chan_websocket); ignored by carriers whose protocol is text only.
     */
    default CarrierEvent read(byte[] binary) throws IOException {
        return CarrierEvent.IGNORED;
    }

    /** One frame of the agent's audio for the caller, in {@link #format()}. */
    CarrierFrame media(byte[] audio);

    /** A named mark after the audio sent so far: the carrier echoes it ({@link CarrierEvent.Marked}) once played. */
    CarrierFrame mark(String name);

    /** Drop the audio the carrier holds and has not played (a barge-in). */
    CarrierFrame clear();

    /**
     * Whether the carrier echoes a mark once the audio before it has played (Twilio, Telnyx, Plivo's checkpoints,
     * Vonage's notify). A carrier that does not (Cloudonix) has its marks echoed by the media socket when that audio
     * has played by the clock, 20 ms a frame from when it was sent or the last frame before it ended.
     */
    default boolean echoesMarks() {
        return true;
    }

    /**
     * What ends the call on the media socket itself, sent just before this side closes it (Asterisk's
     * {@code HANGUP}); none where the carrier's API hangs up and closing the stream is enough (Twilio, Telnyx).
     */
    default Optional<CarrierFrame> hangUp() {
        return Optional.empty();
    }
}
