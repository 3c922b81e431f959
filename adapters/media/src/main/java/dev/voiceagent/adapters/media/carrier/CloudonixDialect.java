package dev.voiceagent.adapters.media.carrier;

/**
 * Cloudonix's {@code <Connect><Stream>}: Twilio Media Streams' messages ({@link TwilioDialect}: connected, start with
 * start.streamSid, start.callSid and start.session, media as base64 μ-law 8 kHz, dtmf, stop; media and clear back with
 * the streamSid), as Cloudonix's own serializer speaks them. Cloudonix documents no mark: marks are not sent to it and
 * the media socket echoes them itself when the audio before them has played ({@link #echoesMarks()}). Its streams are
 * not re-opened when they end.
 */
public final class CloudonixDialect extends TwilioDialect {

    public CloudonixDialect() {
        super("Cloudonix");
    }

    @Override
    public boolean echoesMarks() {
        return false;
    }

    @Override
    public CarrierEvent read(String text) throws java.io.IOException {
        CarrierEvent event = super.read(text);
        // a stream Cloudonix opened is never redirected back to this service: not resumable, whatever it says
        return event instanceof CarrierEvent.Start start && start.resumable()
                ? new CarrierEvent.Start(start.streamId(), start.encoding(), false) : event;
    }
}
