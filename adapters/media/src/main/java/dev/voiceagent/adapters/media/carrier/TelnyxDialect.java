package dev.voiceagent.adapters.media.carrier;

import static dev.voiceagent.adapters.media.carrier.MediaJson.DECODE;
import static dev.voiceagent.adapters.media.carrier.MediaJson.ENCODE;
import static dev.voiceagent.adapters.media.carrier.MediaJson.JSON;
import static dev.voiceagent.adapters.media.carrier.MediaJson.number;
import static dev.voiceagent.adapters.media.carrier.MediaJson.text;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import java.io.IOException;
import java.util.Locale;

/**
 * Telnyx media streaming, bidirectional RTP mode, JSON text frames:
 * <ul>
 * <li>in: connected, then start (stream_id, media_format: the caller's encoding, PCMU or PCMA; anything else is
 * refused), media (base64 RTP payloads of the inbound track; A-law is turned into μ-law here), dtmf, mark, error,
 * stop. Telnyx does not promise order: a media frame whose sequence number is not past the last one read in is
 * dropped (its time has passed), unless it is so far off that the count restarted. Messages of another stream id are
 * ignored.</li>
 * <li>out: media, mark and clear without ids (the socket is the stream). Hanging up is Call Control's
 * {@code actions/hangup} (the gateway's), not a message.</li>
 * </ul>
 */
public final class TelnyxDialect implements CarrierDialect {

    private static final String MEDIA_PREFIX = "{\"event\":\"media\",\"media\":{\"payload\":\"";
    private static final CarrierFrame CLEAR = new CarrierFrame.Text("{\"event\":\"clear\"}");

    /**
     * How far behind the last frame read in a frame may come and still be taken for a late one (dropped): 20 s of
     * frames. A sequence number further off is a restarted count (or a forged one) and starts the count anew, so one
     * frame numbered 2^63 - 1 cannot deafen the call.
     */
    static final long LATE_WINDOW = 1_000;

    private boolean started;
    private String streamId;
    private boolean alaw;
    private long lastSequence = -1;

    @Override
    public String carrier() {
        return "Telnyx";
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
            return "start".equals(m.event) && m.streamId != null ? start(m) : CarrierEvent.IGNORED;
        }
        if (m.streamId != null && !m.streamId.equals(streamId)) {
            return CarrierEvent.IGNORED; // another stream's message: never heard as this caller
        }
        return switch (m.event) {
            case "media" -> media(m);
            case "dtmf" -> m.digit == null ? CarrierEvent.IGNORED : new CarrierEvent.Dtmf(m.digit);
            case "mark" -> m.mark == null ? CarrierEvent.IGNORED : new CarrierEvent.Marked(m.mark);
            case "stop" -> CarrierEvent.STOPPED;
            case "error" -> new CarrierEvent.Failed(m.detail != null ? m.detail : m.title);
            default -> CarrierEvent.IGNORED; // connected, a second start, and whatever Telnyx adds later
        };
    }

    private CarrierEvent start(Message m) {
        started = true;
        streamId = m.streamId;
        String encoding = m.encoding == null ? "PCMU" : m.encoding.toUpperCase(Locale.ROOT);
        if (!"PCMU".equals(encoding) && !"PCMA".equals(encoding)) {
            return new CarrierEvent.Refused("unsupported_media_encoding", "Telnyx streams " + encoding
                    + ", not PCMU or PCMA");
        }
        alaw = "PCMA".equals(encoding);
        return new CarrierEvent.Start(m.streamId, encoding, false);
    }

    private CarrierEvent media(Message m) {
        if (m.payload == null || m.track != null && !"inbound".equals(m.track)) {
            return CarrierEvent.IGNORED; // the agent's own track (both_tracks) is never heard back
        }
        if (m.sequence >= 0) {
            if (m.sequence <= lastSequence && lastSequence - m.sequence < LATE_WINDOW) {
                return CarrierEvent.DROPPED;
            }
            lastSequence = m.sequence;
        }
        byte[] audio = DECODE.decode(m.payload);
        return new CarrierEvent.Audio(alaw ? G711.alawToMulaw(audio) : audio);
    }

    @Override
    public CarrierFrame media(byte[] audio) {
        return new CarrierFrame.Text(MEDIA_PREFIX + ENCODE.encodeToString(audio) + "\"}}");
    }

    @Override
    public CarrierFrame mark(String name) {
        return new CarrierFrame.Text("{\"event\":\"mark\",\"mark\":{\"name\":\"" + name + "\"}}");
    }

    @Override
    public CarrierFrame clear() {
        return CLEAR;
    }

    /** The fields of a Telnyx message this dialect reads; the payload stays base64 until it is needed. */
    private static final class Message {
        String event;
        String streamId;
        long sequence = -1;
        String payload;
        String track;
        String digit;
        String mark;
        String encoding;
        String detail;
        String title;
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
                    case "stream_id" -> m.streamId = text(p);
                    case "sequence_number" -> m.sequence = number(p);
                    case "start", "media", "dtmf", "mark", "payload" -> {
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

    /** The fields of the start, media, dtmf, mark and error payload objects (one level, plus media_format). */
    private static void inner(JsonParser p, Message m) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            switch (name) {
                case "payload" -> m.payload = text(p);
                case "track" -> m.track = text(p);
                case "digit" -> m.digit = text(p);
                case "name" -> m.mark = text(p);
                case "detail" -> m.detail = text(p);
                case "title" -> m.title = text(p);
                case "media_format" -> {
                    if (value != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        continue;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String key = p.currentName();
                        p.nextToken();
                        if ("encoding".equals(key)) {
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
