package dev.voiceagent.adapters.media.carrier;

import static dev.voiceagent.adapters.media.carrier.MediaJson.JSON;
import static dev.voiceagent.adapters.media.carrier.MediaJson.text;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.voiceagent.domain.audio.AudioFormat;
import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Asterisk's chan_websocket (an ARI externalMedia channel, {@code transport=websocket}, {@code format=ulaw}): media in
 * BINARY frames, control in TEXT frames, in the format the call's MEDIA_START came in (JSON from Asterisk 20.18, 22.8
 * and 23.2 on; the older plain text, one line {@code EVENT key:value ...}, otherwise):
 * <ul>
 * <li>in: MEDIA_START (channel_id, format: μ-law is taken, anything else refused), the caller's μ-law as binary
 * frames (160 bytes every 20 ms), DTMF_END (digit), MEDIA_MARK_PROCESSED (a mark's correlation_id, JSON only), and
 * the flow control and status events (ignored: the session keeps 200 ms ahead of the caller, far below Asterisk's 900
 * frames of XOFF). Asterisk's end of the call closes the socket.</li>
 * <li>out: the agent's μ-law as binary frames of the optimal frame size (160 bytes); MARK_MEDIA with a correlation_id
 * (JSON), FLUSH_MEDIA for a barge-in, HANGUP before this side closes. In plain text, which has no mark event to come
 * back, marks are echoed by the media socket by the clock ({@link #echoesMarks()}).</li>
 * </ul>
 */
public final class AsteriskDialect implements CarrierDialect {

    private static final CarrierFrame FLUSH_JSON = new CarrierFrame.Text("{\"command\":\"FLUSH_MEDIA\"}");
    private static final CarrierFrame FLUSH_TEXT = new CarrierFrame.Text("FLUSH_MEDIA");
    private static final CarrierFrame HANGUP_JSON = new CarrierFrame.Text("{\"command\":\"HANGUP\"}");
    private static final CarrierFrame HANGUP_TEXT = new CarrierFrame.Text("HANGUP");

    private boolean started;
    private boolean json;

    @Override
    public String carrier() {
        return "Asterisk";
    }

    @Override
    public AudioFormat format() {
        return AudioFormat.MULAW_8K;
    }

    @Override
    public boolean echoesMarks() {
        return json;
    }

    @Override
    public CarrierEvent read(String text) throws IOException {
        String trimmed = text.strip();
        boolean isJson = trimmed.startsWith("{");
        Map<String, String> m = isJson ? parseJson(trimmed) : parseLine(trimmed);
        String event = m.get("event");
        if (event == null) {
            return CarrierEvent.IGNORED;
        }
        if (!started) {
            return "MEDIA_START".equals(event) && m.get("channel_id") != null ? start(m, isJson) : CarrierEvent.IGNORED;
        }
        return switch (event) {
            case "DTMF_END" -> m.get("digit") == null ? CarrierEvent.IGNORED : new CarrierEvent.Dtmf(m.get("digit"));
            case "MEDIA_MARK_PROCESSED" -> m.get("correlation_id") == null ? CarrierEvent.IGNORED
                    : new CarrierEvent.Marked(m.get("correlation_id"));
            default -> CarrierEvent.IGNORED; // MEDIA_XOFF/XON, STATUS, QUEUE_DRAINED, MEDIA_BUFFERING_COMPLETED
        };
    }

    private CarrierEvent start(Map<String, String> m, boolean isJson) {
        started = true;
        json = isJson;
        String format = m.getOrDefault("format", "ulaw").toLowerCase(Locale.ROOT);
        if (!"ulaw".equals(format)) {
            return new CarrierEvent.Refused("unsupported_media_encoding", "Asterisk streams " + format
                    + ", not ulaw");
        }
        return new CarrierEvent.Start(m.get("channel_id"), "ulaw", false);
    }

    /** The caller's μ-law, as Asterisk frames it. */
    @Override
    public CarrierEvent read(byte[] binary) {
        return started && binary.length > 0 ? new CarrierEvent.Audio(binary) : CarrierEvent.IGNORED;
    }

    @Override
    public CarrierFrame media(byte[] audio) {
        return new CarrierFrame.Binary(audio);
    }

    @Override
    public CarrierFrame mark(String name) {
        return json ? new CarrierFrame.Text("{\"command\":\"MARK_MEDIA\",\"correlation_id\":" + MediaJson.quote(name)
                + "}") : new CarrierFrame.Text("MARK_MEDIA " + name);
    }

    @Override
    public CarrierFrame clear() {
        return json ? FLUSH_JSON : FLUSH_TEXT;
    }

    /** Asterisk hangs up the channel and closes the socket on its HANGUP command. */
    @Override
    public Optional<CarrierFrame> hangUp() {
        return Optional.of(json ? HANGUP_JSON : HANGUP_TEXT);
    }

    /** A plain-text event: {@code NAME key:value key:value}. */
    private static Map<String, String> parseLine(String line) {
        Map<String, String> m = new HashMap<>();
        String[] parts = line.split("\\s+");
        if (parts.length == 0 || parts[0].isEmpty() || !parts[0].chars().allMatch(c -> c == '_'
                || c >= 'A' && c <= 'Z')) {
            return m;
        }
        m.put("event", parts[0]);
        for (int i = 1; i < parts.length; i++) {
            int colon = parts[i].indexOf(':');
            if (colon > 0) {
                m.put(parts[i].substring(0, colon), parts[i].substring(colon + 1));
            }
        }
        return m;
    }

    /** A JSON event's scalar fields (channel_variables and other objects skipped). */
    private static Map<String, String> parseJson(String text) throws IOException {
        Map<String, String> m = new HashMap<>();
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return m;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                String value = text(p);
                if (value != null) {
                    m.put(field, value);
                }
            }
        }
        return m;
    }
}
