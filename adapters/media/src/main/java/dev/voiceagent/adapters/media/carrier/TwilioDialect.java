package dev.voiceagent.adapters.media.carrier;

import static dev.voiceagent.adapters.media.carrier.MediaJson.DECODE;
import static dev.voiceagent.adapters.media.carrier.MediaJson.ENCODE;
import static dev.voiceagent.adapters.media.carrier.MediaJson.JSON;
import static dev.voiceagent.adapters.media.carrier.MediaJson.text;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.voiceagent.domain.audio.AudioFormat;
import java.io.IOException;

/**
 * Twilio Media Streams, bidirectional ({@code <Connect><Stream>}), JSON text frames only (Twilio drops binary ones):
 * <ul>
 * <li>in: connected, then start (streamSid, customParameters: {@code resumable} when the TwiML redirects back to this
 * service after the stream, mediaFormat), media (base64 μ-law 8 kHz, 20 ms; the inbound track only), dtmf, mark (the
 * echo of a mark once the audio before it played; a clear sends back the pending ones), stop. Twilio's messages come
 * in order (one TCP stream).</li>
 * <li>out: media, mark and clear, each with the streamSid. Hanging up is Twilio's REST API (the gateway's), not a
 * message.</li>
 * </ul>
 */
public class TwilioDialect implements CarrierDialect {

    private final String carrier;
    private String streamSid;
    /** The start of every media message to Twilio, up to its payload. */
    private String mediaPrefix;

    public TwilioDialect() {
        this("Twilio");
    }

    /** A carrier that speaks Twilio Media Streams under its own name. */
    protected TwilioDialect(String carrier) {
        this.carrier = carrier;
    }

    @Override
    public String carrier() {
        return carrier;
    }

    @Override
    public AudioFormat format() {
        return AudioFormat.MULAW_8K;
    }

    @Override
    public CarrierEvent read(String text) throws IOException {
        Message m = parse(text);
        if (m.event == null) {
            return CarrierEvent.IGNORED;
        }
        if (streamSid == null) {
            return "start".equals(m.event) && m.streamSid != null ? start(m) : CarrierEvent.IGNORED;
        }
        if (m.streamSid != null && !streamSid.equals(m.streamSid)) {
            return CarrierEvent.IGNORED; // another stream's message: never heard as this caller
        }
        return switch (m.event) {
            case "media" -> m.payload == null || m.track != null && !"inbound".equals(m.track) ? CarrierEvent.IGNORED
                    : new CarrierEvent.Audio(DECODE.decode(m.payload));
            case "dtmf" -> m.digit == null ? CarrierEvent.IGNORED : new CarrierEvent.Dtmf(m.digit);
            case "mark" -> m.mark == null ? CarrierEvent.IGNORED : new CarrierEvent.Marked(m.mark);
            case "stop" -> CarrierEvent.STOPPED;
            default -> CarrierEvent.IGNORED; // connected, a second start, and whatever Twilio adds later
        };
    }

    private CarrierEvent start(Message m) {
        streamSid = m.streamSid;
        mediaPrefix = "{\"event\":\"media\",\"streamSid\":\"" + streamSid + "\",\"media\":{\"payload\":\"";
        return new CarrierEvent.Start(streamSid, m.encoding == null ? "audio/x-mulaw" : m.encoding, m.resumable);
    }

    @Override
    public CarrierFrame media(byte[] audio) {
        return new CarrierFrame.Text(mediaPrefix + ENCODE.encodeToString(audio) + "\"}}");
    }

    @Override
    public CarrierFrame mark(String name) {
        return new CarrierFrame.Text("{\"event\":\"mark\",\"streamSid\":\"" + streamSid + "\",\"mark\":{\"name\":\""
                + name + "\"}}");
    }

    @Override
    public CarrierFrame clear() {
        return new CarrierFrame.Text("{\"event\":\"clear\",\"streamSid\":\"" + streamSid + "\"}");
    }

    /** The fields of a Twilio message this dialect reads; the payload stays base64 until it is needed. */
    private static final class Message {
        String event;
        String streamSid;
        String payload;
        String track;
        String digit;
        String mark;
        String encoding;
        boolean resumable;
    }

    private static Message parse(String text) throws IOException {
        Message m = new Message();
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return m;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "event" -> m.event = text(p);
                    case "streamSid" -> m.streamSid = text(p);
                    case "start", "media", "dtmf", "mark" -> {
                        if (value == JsonToken.START_OBJECT) {
                            inner(p, m);
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        }
        return m;
    }

    /** The fields of the start, media, dtmf and mark objects (one level, plus customParameters and mediaFormat). */
    private static void inner(JsonParser p, Message m) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            switch (name) {
                case "payload" -> m.payload = text(p);
                case "track" -> m.track = text(p);
                case "digit" -> m.digit = text(p);
                case "name" -> m.mark = text(p);
                case "streamSid" -> {
                    String sid = text(p);
                    m.streamSid = m.streamSid == null ? sid : m.streamSid;
                }
                case "customParameters", "mediaFormat" -> {
                    if (value != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        continue;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String key = p.currentName();
                        p.nextToken();
                        if ("resumable".equals(key) && "customParameters".equals(name)) {
                            m.resumable = "true".equals(text(p));
                        } else if ("encoding".equals(key) && "mediaFormat".equals(name)) {
                            m.encoding = text(p);
                        } else {
                            p.skipChildren();
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
    }
}
