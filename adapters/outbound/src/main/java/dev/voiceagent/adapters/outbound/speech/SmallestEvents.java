package dev.voiceagent.adapters.outbound.speech;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.UnaryOperator;

/**
 * The server-sent events of Smallest AI's streamed speech ({@code POST /waves/v1/tts/live}, its Waves TTS API
 * reference, smallest-inc/smallest-ai-documentation fern/apis/waves/openapi/tts-openapi.yaml): each {@code data:} line
 * a JSON object, a piece of the audio in base64 in its {@code audio} ({@code "done": false, "status": "206"}), the last
 * {@code {"status": "200", "done": true}}. Smallest documents no error event for this stream: one carrying an
 * {@code error}, a {@code "status": "error"} (its WebSocket's error frames) or a status that is not 2xx is taken as
 * Smallest's refusal of the sentence, with its words ({@link SpeechRequests.Said}). Lines may be split across the
 * body's pieces; other lines ({@code event:}, comments) carry nothing. One per request.
 */
final class SmallestEvents implements UnaryOperator<byte[]> {

    private static final Base64.Decoder DECODE = Base64.getDecoder();

    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    @Override
    public byte[] apply(byte[] piece) {
        ByteArrayOutputStream audio = new ByteArrayOutputStream();
        for (byte b : piece) {
            if (b == '\n') {
                line(line.toString(StandardCharsets.UTF_8).strip(), audio);
                line.reset();
            } else {
                line.write(b);
            }
        }
        return audio.toByteArray();
    }

    private static void line(String line, ByteArrayOutputStream audio) {
        if (!line.startsWith("data:")) {
            return;
        }
        JsonObject event;
        try {
            event = new JsonObject(line.substring(5).strip());
        } catch (DecodeException | ClassCastException notJson) {
            return;
        }
        String status = event.getValue("status") == null ? "" : String.valueOf(event.getValue("status"));
        if (event.getValue("error") != null || status.equals("error")
                || status.matches("\\d{3}") && !status.startsWith("2")) {
            throw new SpeechRequests.Said(words(event, status));
        }
        if (event.getValue("audio") instanceof String data && !data.isEmpty()) {
            try {
                audio.writeBytes(DECODE.decode(data));
            } catch (IllegalArgumentException notBase64) {
                throw new SpeechRequests.Said("sent audio that is not base64");
            }
        }
    }

    /** The error event's words: its error's message (or the error itself), its message, and its code or status. */
    private static String words(JsonObject event, String status) {
        Object error = event.getValue("error");
        String message = error instanceof JsonObject e && e.getValue("message") instanceof String m ? m
                : event.getValue("message") instanceof String m ? m
                : error instanceof String e ? e : event.encode();
        Object code = error instanceof JsonObject e && e.getValue("code") != null ? e.getValue("code")
                : status.isEmpty() || status.equals("error") ? null : status;
        return message + (code == null ? "" : " (" + code + ")");
    }
}
