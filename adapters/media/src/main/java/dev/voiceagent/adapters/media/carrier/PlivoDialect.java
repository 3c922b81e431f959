package dev.voiceagent.adapters.media.carrier;

import static dev.voiceagent.adapters.media.carrier.MediaJson.DECODE;
import static dev.voiceagent.adapters.media.carrier.MediaJson.ENCODE;
import static dev.voiceagent.adapters.media.carrier.MediaJson.JSON;
import static dev.voiceagent.adapters.media.carrier.MediaJson.number;
import static dev.voiceagent.adapters.media.carrier.MediaJson.text;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.voiceagent.domain.audio.AudioFormat;
import java.io.IOException;
import java.util.Locale;

/**
 * Plivo's audio streams ({@code <Stream bidirectional="true" contentType="audio/x-mulaw;rate=8000">}), JSON text
 * frames:
 * <ul>
 * <li>in: start (start.streamId, start.callId, start.mediaFormat: μ-law at 8 kHz is taken, anything else refused, as
 * the XML asked for it), media (base64 μ-law of the inbound track), dtmf (dtmf.digit), playedStream (a checkpoint's
 * audio has played: its name), clearedAudio. Plivo sends no stop: the call's end closes the socket. Messages of another
 * streamId are ignored.</li>
 * <li>out: playAudio (contentType, sampleRate, base64 payload), checkpoint (streamId, name) and clearAudio (streamId).
 * Hanging up is the Call API's DELETE (the gateway's), not a message.</li>
 * </ul>
 * Vobiz speaks the same protocol ({@link VobizDialect}).
 */
public class PlivoDialect implements CarrierDialect {

    private static final String MULAW = "audio/x-mulaw";

    private final String carrier;
    private boolean started;
    private String streamId;
    private String mediaPrefix;
    private CarrierFrame clear;

    public PlivoDialect() {
        this("Plivo");
    }

    /** A carrier that speaks Plivo's stream protocol under its own name. */
    protected PlivoDialect(String carrier) {
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
        if (!started) {
            return "start".equals(m.event) && m.startStreamId != null ? start(m) : CarrierEvent.IGNORED;
        }
        if (m.streamId != null && !m.streamId.equals(streamId)) {
            return CarrierEvent.IGNORED; // another stream's message: never heard as this caller
        }
        return switch (m.event) {
            case "media" -> m.payload == null || m.track != null && !"inbound".equals(m.track)
                    ? CarrierEvent.IGNORED : new CarrierEvent.Audio(DECODE.decode(m.payload));
            case "dtmf" -> m.digit == null ? CarrierEvent.IGNORED : new CarrierEvent.Dtmf(m.digit);
            case "playedStream" -> m.name == null ? CarrierEvent.IGNORED : new CarrierEvent.Marked(m.name);
            case "stop" -> CarrierEvent.STOPPED;
            default -> CarrierEvent.IGNORED; // clearedAudio, a second start, and whatever the carrier adds later
        };
    }

    private CarrierEvent start(Message m) {
        started = true;
        streamId = m.startStreamId;
        String quoted = MediaJson.quote(streamId);
        mediaPrefix = "{\"event\":\"playAudio\",\"streamId\":" + quoted
                + ",\"media\":{\"contentType\":\"audio/x-mulaw\",\"sampleRate\":8000,\"payload\":\"";
        clear = new CarrierFrame.Text("{\"event\":\"clearAudio\",\"streamId\":" + quoted + "}");
        String encoding = m.encoding == null ? MULAW : m.encoding.toLowerCase(Locale.ROOT);
        if (!MULAW.equals(encoding) || m.sampleRate > 0 && m.sampleRate != 8000) {
            return new CarrierEvent.Refused("unsupported_media_encoding", carrier + " streams " + encoding + " at "
                    + m.sampleRate + " Hz, not audio/x-mulaw at 8000 Hz");
        }
        return new CarrierEvent.Start(streamId, MULAW, false);
    }

    @Override
    public CarrierFrame media(byte[] audio) {
        return new CarrierFrame.Text(mediaPrefix + ENCODE.encodeToString(audio) + "\"}}");
    }

    @Override
    public CarrierFrame mark(String name) {
        return new CarrierFrame.Text("{\"event\":\"checkpoint\",\"streamId\":" + MediaJson.quote(streamId)
                + ",\"name\":" + MediaJson.quote(name) + "}");
    }

    @Override
    public CarrierFrame clear() {
        return clear;
    }

    /** The fields of a Plivo message this dialect reads; the payload stays base64 until it is needed. */
    private static final class Message {
        String event;
        String streamId;
        String startStreamId;
        String payload;
        String track;
        String digit;
        String name;
        String encoding;
        long sampleRate = -1;
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
                    case "streamId" -> m.streamId = text(p);
                    case "name" -> m.name = text(p);
                    case "start", "media", "dtmf" -> {
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

    /** The fields of the start, media and dtmf objects (one level, plus mediaFormat). */
    private static void inner(JsonParser p, Message m) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            switch (name) {
                case "payload" -> m.payload = text(p);
                case "track" -> m.track = text(p);
                case "digit" -> m.digit = text(p);
                case "streamId" -> m.startStreamId = text(p);
                case "mediaFormat" -> {
                    if (value != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        continue;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String key = p.currentName();
                        p.nextToken();
                        switch (key) {
                            case "encoding" -> m.encoding = text(p);
                            case "sampleRate" -> m.sampleRate = number(p);
                            default -> p.skipChildren();
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
    }
}
