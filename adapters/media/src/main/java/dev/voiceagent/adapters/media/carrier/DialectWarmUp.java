package dev.voiceagent.adapters.media.carrier;

import java.io.IOException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A call's messages in every carrier's dialect, read and answered as the media route does for a call (start, the
 * caller's frames, the agent's frames, marks and their echoes, a clear), so the JIT has compiled the route's per-frame
 * work before a fresh replica's first callers send theirs. Part of the replica's warm-up before it reports ready.
 */
public final class DialectWarmUp {

    /**
     * One carrier's call as it sends it: its opening messages (the last one the start), a media and a mark message; a
     * null media message is audio sent as binary messages (Vonage's).
     */
    record Sample(List<String> opening, String media, String mark) {
    }

    /** Each carrier's messages as its documentation shows them; {n} is a message's number, {payload} its audio. */
    static final Map<String, Sample> SAMPLES = Map.of(
            "Twilio", new Sample(List.of(
                    "{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}",
                    "{\"event\":\"start\",\"sequenceNumber\":\"1\",\"streamSid\":\"MZwarmup\",\"start\":{\"streamSid\":"
                            + "\"MZwarmup\",\"tracks\":[\"inbound\"],\"customParameters\":{},\"mediaFormat\":"
                            + "{\"encoding\":\"audio/x-mulaw\",\"sampleRate\":8000,\"channels\":1}}}"),
                    "{\"event\":\"media\",\"sequenceNumber\":\"{n}\",\"streamSid\":\"MZwarmup\",\"media\":{\"track\":"
                            + "\"inbound\",\"chunk\":\"{n}\",\"timestamp\":\"{n}0\",\"payload\":\"{payload}\"}}",
                    "{\"event\":\"mark\",\"sequenceNumber\":\"{n}\",\"streamSid\":\"MZwarmup\",\"mark\":{\"name\":"
                            + "\"m{n}\"}}"),
            "Telnyx", new Sample(List.of(
                    "{\"event\":\"connected\",\"version\":\"1.0.0\"}",
                    "{\"event\":\"start\",\"sequence_number\":\"1\",\"start\":{\"call_control_id\":\"v3:warmup\","
                            + "\"media_format\":{\"encoding\":\"PCMU\",\"sample_rate\":8000,\"channels\":1}},"
                            + "\"stream_id\":\"warmup\"}"),
                    "{\"event\":\"media\",\"sequence_number\":\"{n}\",\"media\":{\"track\":\"inbound\",\"chunk\":\"{n}\","
                            + "\"timestamp\":\"{n}0\",\"payload\":\"{payload}\"},\"stream_id\":\"warmup\"}",
                    "{\"event\":\"mark\",\"sequence_number\":\"{n}\",\"stream_id\":\"warmup\",\"mark\":{\"name\":"
                            + "\"m{n}\"}}"),
            "Plivo", plivo(),
            "Vobiz", plivo(),
            "Asterisk", new Sample(List.of("{\"event\":\"MEDIA_START\",\"connection_id\":\"warmup\",\"channel\":"
                    + "\"WebSocket/warmup\",\"channel_id\":\"warmup.1\",\"format\":\"ulaw\",\"optimal_frame_size\":160,"
                    + "\"ptime\":20,\"channel_variables\":{}}"), null,
                    "{\"event\":\"MEDIA_MARK_PROCESSED\",\"channel_id\":\"warmup.1\",\"correlation_id\":\"m{n}\"}"),
            "Cloudonix", new Sample(List.of(
                    "{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}",
                    "{\"event\":\"start\",\"sequenceNumber\":\"1\",\"start\":{\"streamSid\":\"warmup\","
                            + "\"callSid\":\"warmup-call\",\"session\":\"warmup-session\",\"tracks\":[\"inbound\"],"
                            + "\"mediaFormat\":{\"encoding\":\"audio/x-mulaw\",\"sampleRate\":8000,\"channels\":1}},"
                            + "\"streamSid\":\"warmup\"}"),
                    "{\"event\":\"media\",\"sequenceNumber\":\"{n}\",\"streamSid\":\"warmup\",\"media\":{\"track\":"
                            + "\"inbound\",\"chunk\":\"{n}\",\"timestamp\":\"{n}0\",\"payload\":\"{payload}\"}}",
                    "{\"event\":\"dtmf\",\"streamSid\":\"warmup\",\"dtmf\":{\"digit\":\"1\"}}"),
            "Vonage", new Sample(List.of("{\"event\":\"websocket:connected\",\"content-type\":"
                    + "\"audio/l16;rate=16000\",\"call_uuid\":\"warmup\"}"), null,
                    "{\"event\":\"websocket:notify\",\"payload\":{\"name\":\"m{n}\"}}"));

    /** Plivo's stream protocol, which Vobiz speaks too. */
    private static Sample plivo() {
        return new Sample(List.of(
                "{\"sequenceNumber\":0,\"event\":\"start\",\"start\":{\"callId\":\"warmup-call\",\"streamId\":"
                        + "\"warmup\",\"accountId\":\"MAwarmup\",\"tracks\":[\"inbound\"],\"mediaFormat\":"
                        + "{\"encoding\":\"audio/x-mulaw\",\"sampleRate\":8000}},\"extra_headers\":\"{}\"}"),
                "{\"sequenceNumber\":{n},\"streamId\":\"warmup\",\"event\":\"media\",\"media\":{\"track\":"
                        + "\"inbound\",\"timestamp\":\"{n}0\",\"chunk\":{n},\"payload\":\"{payload}\"},"
                        + "\"extra_headers\":\"{}\"}",
                "{\"event\":\"playedStream\",\"sequenceNumber\":{n},\"streamId\":\"warmup\",\"name\":\"m{n}\"}");
    }

    private DialectWarmUp() {
    }

    /**
     * {@code frames} frames of a call both ways in each of {@code dialects}; returns the frames read. A sample its
     * dialect does not take as a start, or a frame not read as audio, is an {@link IllegalStateException} (a dialect
     * without a sample too): the warm-up would be warming nothing.
     */
    public static int exercise(List<Supplier<CarrierDialect>> dialects, int frames) throws IOException {
        int read = 0;
        for (Supplier<CarrierDialect> supplier : dialects) {
            CarrierDialect dialect = supplier.get();
            Sample sample = SAMPLES.get(dialect.carrier());
            if (sample == null) {
                throw new IllegalStateException("no warm-up sample of " + dialect.carrier() + "'s media");
            }
            CarrierEvent started = null;
            for (String line : sample.opening()) {
                started = dialect.read(line);
            }
            if (!(started instanceof CarrierEvent.Start)) {
                throw new IllegalStateException(dialect.carrier() + " did not take the warm-up's start: " + started);
            }
            byte[] frame = new byte[dialect.format().bytes(20)];
            for (int n = 2; n < frames + 2; n++) {
                for (int i = 0; i < frame.length; i++) {
                    frame[i] = (byte) (n * 31 + i * 7);
                }
                CarrierEvent heard = sample.media() == null ? dialect.read(frame.clone())
                        : dialect.read(sample.media().replace("{n}", Integer.toString(n)).replace("{payload}",
                                Base64.getEncoder().encodeToString(frame)));
                if (!(heard instanceof CarrierEvent.Audio)) {
                    throw new IllegalStateException(dialect.carrier() + " did not read the warm-up's frame " + n);
                }
                read++;
                dialect.media(frame);
                if (n % 25 == 0) {
                    dialect.mark("m" + n);
                    dialect.read(sample.mark().replace("{n}", Integer.toString(n)));
                }
                if (n % 250 == 0) {
                    dialect.clear();
                }
            }
        }
        return read;
    }
}
