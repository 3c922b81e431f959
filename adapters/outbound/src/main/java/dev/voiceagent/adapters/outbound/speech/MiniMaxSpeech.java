package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.domain.audio.AudioFormat;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Set;

/**
 * MiniMax's T2A v2 ({@code POST {base}/t2a_v2}, {@code ?GroupId=} when the configuration has one), one
 * {@link SpeechRequests} request per sentence with {@code "stream": true}: the key as a Bearer token, the model, the
 * voice and its speed, raw 16-bit PCM asked for at the call's rate ({@code audio_setting.format "pcm"}, mono; μ-law
 * encoded here for the phone, with the domain's G.711) and the final event's aggregated copy of the audio left out
 * ({@code stream_options.exclude_aggregated_audio}). The answer is server-sent events, each {@code data:} a JSON chunk
 * with hex-encoded audio in {@code data.audio} ({@code data.status} 1); the last one carries {@code extra_info} (the
 * usage) and {@code data.status} 2 and ends the sentence: an answer that ends without it broke, and is asked again.
 * MiniMax says a failure in {@code base_resp} (a non-zero {@code status_code} and its {@code status_msg}), as an event or
 * as the whole answer, often under HTTP 200: its rate limits, time-outs and internal errors (1000, 1001, 1002, 1013,
 * 1039) are tried again, anything else (1004 a refused key, 1008 no balance, 2013 bad parameters, 2049 a bad key...)
 * fails the stream in MiniMax's words. (Relied on: platform.minimax.io/docs/api-reference/speech-t2a-http and its error
 * codes; pipecat's services/minimax/tts.py, which reads the same events.)
 */
final class MiniMaxSpeech {

    /** The sample rates MiniMax synthesizes at; a call at another is given 24 kHz resampled. */
    private static final Set<Integer> RATES = Set.of(8_000, 16_000, 22_050, 24_000, 32_000, 44_100);
    /** MiniMax's status codes worth another try: unknown error, time-out, rate limits, internal error. */
    private static final Set<Integer> TRANSIENT = Set.of(1000, 1001, 1002, 1013, 1039);
    /** The longest event line read (a sentence's audio, hex-encoded, is far shorter). */
    static final int MAX_LINE = 16 << 20;

    private MiniMaxSpeech() {
    }

    /** The rate asked of MiniMax for a call. */
    static int rate(AudioFormat format) {
        return RATES.contains(format.sampleRate()) ? format.sampleRate() : 24_000;
    }

    /** The T2A v2 endpoint of a base URL (one without the path given it, as the reference does) and the group. */
    static String url(String base, String groupId) {
        String endpoint = base.endsWith("/t2a_v2") ? base : base + "/t2a_v2";
        return groupId == null || groupId.isBlank() ? endpoint
                : endpoint + "?GroupId=" + URLEncoder.encode(groupId.strip(), StandardCharsets.UTF_8);
    }

    /** A sentence's request. */
    static String body(String text, String model, String voice, Double speed, int rate) {
        return new JsonObject().put("model", model).put("text", text).put("stream", true)
                .put("stream_options", new JsonObject().put("exclude_aggregated_audio", true))
                .put("voice_setting", new JsonObject().put("voice_id", voice).put("speed", speed == null ? 1.0 : speed)
                        .put("vol", 1.0).put("pitch", 0))
                .put("audio_setting", new JsonObject().put("sample_rate", rate).put("format", "pcm").put("channel", 1))
                .encode();
    }

    static SpeechRequests.Decoder decoder(AudioFormat format) {
        return new Events(SpeechRequests.Conversion.fromPcm(rate(format), format));
    }

    /** MiniMax's failure in {@code base_resp}, if it says one. */
    static SpeechRequests.Said failure(JsonObject json) {
        JsonObject said = json.getValue("base_resp") instanceof JsonObject o ? o : null;
        int code = said == null || !(said.getValue("status_code") instanceof Number n) ? 0 : n.intValue();
        if (code == 0) {
            return null;
        }
        String message = said.getValue("status_msg") instanceof String s && !s.isBlank() ? s.strip() : "an error";
        return new SpeechRequests.Said(message + " (status_code " + code + ")", TRANSIENT.contains(code));
    }

    /** One answer's events: read line by line as they come, their audio decoded and converted in order. */
    private static final class Events implements SpeechRequests.Decoder {
        private final SpeechRequests.Conversion conversion;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        /** What came that is not an event: a whole JSON answer (an error MiniMax gives instead of a stream). */
        private final StringBuilder plain = new StringBuilder();
        private boolean finished;

        Events(SpeechRequests.Conversion conversion) {
            this.conversion = conversion;
        }

        @Override
        public byte[] chunk(byte[] bytes) {
            ByteArrayOutputStream audio = new ByteArrayOutputStream();
            int from = 0;
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] == '\n') {
                    line.write(bytes, from, i - from);
                    read(line.toString(StandardCharsets.UTF_8), audio);
                    line.reset();
                    from = i + 1;
                }
            }
            if (line.size() + bytes.length - from > MAX_LINE) {
                throw new SpeechRequests.Said("an event larger than " + (MAX_LINE >> 20) + " MB", false);
            }
            line.write(bytes, from, bytes.length - from);
            return audio.toByteArray();
        }

        @Override
        public byte[] end() {
            ByteArrayOutputStream audio = new ByteArrayOutputStream();
            read(line.toString(StandardCharsets.UTF_8), audio);
            line.reset();
            if (!plain.isEmpty()) {
                JsonObject answer;
                try {
                    answer = new JsonObject(plain.toString());
                } catch (DecodeException notJson) {
                    answer = null;
                }
                SpeechRequests.Said said = answer == null ? null : failure(answer);
                throw said != null ? said : new SpeechRequests.Said("an answer that is not events: "
                        + cut(plain.toString()), true);
            }
            if (!finished) {
                throw new SpeechRequests.Said("the stream ended before its last event", true);
            }
            audio.writeBytes(conversion.end());
            return audio.toByteArray();
        }

        private void read(String text, ByteArrayOutputStream audio) {
            String read = text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            if (read.startsWith("data:")) {
                event(read.substring(5).strip(), audio);
            } else if (!read.isBlank() && !read.startsWith(":") && !read.startsWith("event:") && !read.startsWith("id:")
                    && !read.startsWith("retry:")) {
                plain.append(read).append('\n');
            }
        }

        private void event(String data, ByteArrayOutputStream audio) {
            if (data.isEmpty() || finished) {
                return;
            }
            JsonObject json;
            try {
                json = new JsonObject(data);
            } catch (DecodeException notJson) {
                throw new SpeechRequests.Said("an event that is not JSON: " + cut(data), true);
            }
            SpeechRequests.Said said = failure(json);
            if (said != null) {
                throw said;
            }
            JsonObject chunk = json.getValue("data") instanceof JsonObject o ? o : new JsonObject();
            if (json.containsKey("extra_info") || chunk.getValue("status") instanceof Number n && n.intValue() == 2) {
                finished = true; // its audio, if any, is the whole sentence again
                return;
            }
            if (chunk.getValue("audio") instanceof String hex && !hex.isEmpty()) {
                try {
                    audio.writeBytes(conversion.chunk(HexFormat.of().parseHex(hex)));
                } catch (IllegalArgumentException notHex) {
                    throw new SpeechRequests.Said("audio that is not hex", true);
                }
            }
        }

        private static String cut(String text) {
            String flat = text.strip().replace('\n', ' ');
            return flat.length() <= 200 ? flat : flat.substring(0, 200) + "...";
        }
    }
}
