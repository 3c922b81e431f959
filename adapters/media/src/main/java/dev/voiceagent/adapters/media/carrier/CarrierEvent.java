package dev.voiceagent.adapters.media.carrier;

/** What one message of a carrier says, as its {@link CarrierDialect} read it. */
public sealed interface CarrierEvent {

    /** Nothing the session hears: a connected message, the agent's own track, what carriers add later. */
    CarrierEvent IGNORED = new Ignored();
    /** The carrier says the media stopped (the caller hung up, the stream was stopped). */
    CarrierEvent STOPPED = new Stopped();
    /** A frame of the caller's audio dropped by the carrier's rules (Telnyx's: one that came after a later one). */
    CarrierEvent DROPPED = new Dropped();

    /**
     * The carrier started the call's media.
     *
     * @param streamId the carrier's id of the stream (Twilio's streamSid, Telnyx's stream_id)
     * @param encoding the carrier's name of the caller's audio encoding (Twilio's audio/x-mulaw, Telnyx's PCMU or
     *        PCMA)
     * @param resumable whether the carrier streams the call again when this stream ends without the call ending
     *        (Twilio's {@code resumable} custom parameter, set by the TwiML that redirects back to this service)
     */
    record Start(String streamId, String encoding, boolean resumable) implements CarrierEvent {
    }

    /**
     * A start this side cannot take (an encoding the dialect cannot read): the media is closed.
     *
     * @param reason the close reason
     * @param why what the carrier asked for, for the log
     */
    record Refused(String reason, String why) implements CarrierEvent {
    }

    /** A frame of the caller's audio, decoded to the dialect's {@link CarrierDialect#format()}. */
    record Audio(byte[] frame) implements CarrierEvent {
    }

    /** A key the caller pressed. */
    record Dtmf(String digit) implements CarrierEvent {
    }

    /** The carrier played the agent's audio up to this mark. */
    record Marked(String name) implements CarrierEvent {
    }

    /** The carrier reported an error on the stream (Telnyx's error event); the media goes on. */
    record Failed(String detail) implements CarrierEvent {
    }

    /** See {@link #STOPPED}. */
    record Stopped() implements CarrierEvent {
    }

    /** See {@link #DROPPED}. */
    record Dropped() implements CarrierEvent {
    }

    /** See {@link #IGNORED}. */
    record Ignored() implements CarrierEvent {
    }
}
