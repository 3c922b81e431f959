package dev.voiceagent.adapters.media.carrier;

import static dev.voiceagent.adapters.media.carrier.MediaJson.JSON;
import static dev.voiceagent.adapters.media.carrier.MediaJson.text;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.voiceagent.domain.audio.AudioFormat;
import java.io.IOException;
import java.util.Locale;

/**
 * Vonage's WebSocket endpoint ({@code connect} to a {@code websocket} with {@code content-type
 * audio/l16;rate=16000}):
 * <ul>
 * <li>in: a text {@code websocket:connected} first (its content-type, and the NCCO's headers flattened beside it: the
 * call's {@code call_uuid} is its stream id), then the caller's audio as binary messages of 16-bit little-endian PCM
 * at 16 kHz, 20 ms (640 bytes) each, passed on as they are; text {@code websocket:dtmf} (digit),
 * {@code websocket:notify} (a notify's payload, once the audio queued before it played: a mark's echo),
 * {@code websocket:cleared}. Vonage sends no stop: the call's end closes the socket. A content-type other than 16 kHz
 * linear PCM is refused (the NCCO asked for it).</li>
 * <li>out: the agent's audio as binary 640-byte messages; {@code {"action":"notify","payload":{"name":...}}} for a
 * mark; {@code {"action":"clear"}} to drop what Vonage holds. Hanging up is the Voice API's (the gateway's), not a
 * message.</li>
 * </ul>
 */
public final class VonageDialect implements CarrierDialect {

    private static final String L16 = "audio/l16;rate=16000";
    private static final CarrierFrame CLEAR = new CarrierFrame.Text("{\"action\":\"clear\"}");

    private boolean started;

    @Override
    public String carrier() {
        return "Vonage";
    }

    @Override
    public AudioFormat format() {
        return AudioFormat.PCM_16K;
    }

    @Override
    public CarrierEvent read(String text) throws IOException {
        Message m = parse(text);
        if (m.event == null) {
            return CarrierEvent.IGNORED;
        }
        if (!started) {
            return "websocket:connected".equals(m.event) ? start(m) : CarrierEvent.IGNORED;
        }
        return switch (m.event) {
            case "websocket:dtmf" -> m.digit == null ? CarrierEvent.IGNORED : new CarrierEvent.Dtmf(m.digit);
            case "websocket:notify" -> m.name == null ? CarrierEvent.IGNORED : new CarrierEvent.Marked(m.name);
            case "websocket:error" -> new CarrierEvent.Failed(m.error == null ? text : m.error);
            default -> CarrierEvent.IGNORED; // websocket:cleared, and whatever Vonage adds later
        };
    }

    private CarrierEvent start(Message m) {
        started = true;
        String type = m.contentType == null ? L16 : m.contentType.toLowerCase(Locale.ROOT).replace(" ", "");
        String stream = m.callUuid != null ? m.callUuid : "vonage";
        if (!L16.equals(type)) {
            return new CarrierEvent.Refused("unsupported_media_encoding", "Vonage streams " + type + ", not " + L16);
        }
        return new CarrierEvent.Start(stream, L16, false);
    }

    /** The caller's audio: 16-bit PCM at 16 kHz, as it comes (an odd byte, which no sample has, is dropped). */
    @Override
    public CarrierEvent read(byte[] binary) {
        if (!started || binary.length < 2) {
            return CarrierEvent.IGNORED;
        }
        if (binary.length % 2 != 0) {
            byte[] even = new byte[binary.length - 1];
            System.arraycopy(binary, 0, even, 0, even.length);
            return new CarrierEvent.Audio(even);
        }
        return new CarrierEvent.Audio(binary);
    }

    @Override
    public CarrierFrame media(byte[] audio) {
        return new CarrierFrame.Binary(audio);
    }

    @Override
    public CarrierFrame mark(String name) {
        return new CarrierFrame.Text("{\"action\":\"notify\",\"payload\":{\"name\":" + MediaJson.quote(name) + "}}");
    }

    @Override
    public CarrierFrame clear() {
        return CLEAR;
    }

    /** The fields of a Vonage event this dialect reads. */
    private static final class Message {
        String event;
        String contentType;
        String callUuid;
        String digit;
        String name;
        String error;
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
                    case "content-type" -> m.contentType = text(p);
                    case "call_uuid" -> m.callUuid = text(p);
                    case "digit" -> m.digit = text(p);
                    case "error", "message" -> m.error = text(p);
                    case "dtmf", "payload" -> {
                        if (value != JsonToken.START_OBJECT) {
                            p.skipChildren();
                            continue;
                        }
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String key = p.currentName();
                            p.nextToken();
                            switch (key) {
                                case "digit" -> m.digit = text(p);
                                case "name" -> m.name = text(p);
                                default -> p.skipChildren();
                            }
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        }
        return m;
    }
}
