package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * One call's OpenAI realtime transcription session ({@code /realtime?intent=transcription}): a
 * {@code session.update} of type transcription with the call's μ-law as {@code audio/pcmu}, the model and language,
 * and no turn detection (our voice activity decides turns); the caller's audio appended every 100 ms
 * ({@code input_audio_buffer.append}); at the end of a turn what is pending is appended and the buffer committed, and
 * the item's {@code ...input_audio_transcription.delta} and {@code .completed} events become interim and final
 * transcripts. Audio sent before the socket opened is held (at most {@link #HOLD_MESSAGES} appends).
 */
final class OpenAiTranscription implements SpeechToText.Stream {

    private static final System.Logger LOG = System.getLogger(OpenAiTranscription.class.getName());
    static final int HOLD_MESSAGES = 50;
    /** Frames of 20 ms per append: 100 ms, five times fewer messages than frames. */
    static final int FRAMES_PER_APPEND = 5;

    private final SpeechToText.Listener listener;
    private final AudioFormat format;
    private final String provider;
    private final Deque<String> held = new ArrayDeque<>();
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final Map<String, StringBuilder> partial = new HashMap<>();
    private int pendingFrames;
    private boolean uncommitted;
    private WebSocket socket;
    private long bytes;
    private boolean closed;

    OpenAiTranscription(AudioFormat format, String provider, SpeechToText.Listener listener) {
        this.format = format;
        this.provider = provider;
        this.listener = listener;
    }

    /** The session's configuration: a transcription session on the call's μ-law, turns decided by the caller. */
    static JsonObject session(String model, String language) {
        JsonObject transcription = new JsonObject().put("model", model);
        if (language != null && !language.isBlank() && !"multi".equals(language)) {
            transcription.put("language", language);
        }
        return new JsonObject().put("type", "session.update").put("session", new JsonObject()
                .put("type", "transcription").put("audio", new JsonObject().put("input", new JsonObject()
                        .put("format", new JsonObject().put("type", "audio/pcmu"))
                        .put("transcription", transcription).putNull("turn_detection"))));
    }

    synchronized void connected(WebSocket ws, JsonObject session) {
        if (closed) {
            ws.close();
            return;
        }
        socket = ws;
        ws.textMessageHandler(this::message);
        ws.closeHandler(v -> {
            if (!closed) {
                closed = true;
                listener.failed(provider + " closed the transcription (" + ws.closeStatusCode() + " "
                        + ws.closeReason() + ")");
            }
        });
        ws.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "openai transcription: {0}", e.toString()));
        ws.writeTextMessage(session.encode());
        while (!held.isEmpty()) {
            ws.writeTextMessage(held.pollFirst());
        }
    }

    synchronized void refused(String message) {
        if (!closed) {
            closed = true;
            listener.failed(message);
        }
    }

    private void message(String text) {
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        String type = json.getString("type", "");
        switch (type) {
            case "conversation.item.input_audio_transcription.delta" -> {
                String delta = json.getString("delta", "");
                String so = partial(json.getString("item_id"), delta);
                if (!so.isBlank()) {
                    listener.transcript(so.strip(), false);
                }
            }
            case "conversation.item.input_audio_transcription.completed" -> {
                forget(json.getString("item_id"));
                String transcript = json.getString("transcript", "");
                if (!transcript.isBlank()) {
                    listener.transcript(transcript.strip(), true);
                }
            }
            case "conversation.item.input_audio_transcription.failed" -> {
                forget(json.getString("item_id"));
                JsonObject error = json.getJsonObject("error", new JsonObject());
                LOG.log(System.Logger.Level.WARNING, "{0} could not transcribe a turn: {1}", provider,
                        error.getString("message", "no reason given"));
            }
            case "error" -> {
                JsonObject error = json.getJsonObject("error", new JsonObject());
                if ("input_audio_buffer_commit_empty".equals(error.getString("code"))) {
                    return; // a turn too short to transcribe: nothing was said
                }
                refused(provider + ": " + error.getString("message", "an error"));
            }
            default -> {
                // session.created/updated, input_audio_buffer.committed, and whatever comes later
            }
        }
    }

    private synchronized String partial(String item, String delta) {
        StringBuilder so = partial.computeIfAbsent(String.valueOf(item), i -> new StringBuilder());
        so.append(delta);
        return so.toString();
    }

    private synchronized void forget(String item) {
        partial.remove(String.valueOf(item));
    }

    @Override
    public synchronized void audio(byte[] frame) {
        if (closed) {
            return;
        }
        bytes += frame.length;
        pending.writeBytes(frame);
        if (++pendingFrames >= FRAMES_PER_APPEND) {
            append();
        }
    }

    private void append() {
        if (pending.size() == 0) {
            return;
        }
        String message = new JsonObject().put("type", "input_audio_buffer.append")
                .put("audio", Base64.getEncoder().encodeToString(pending.toByteArray())).encode();
        pending.reset();
        pendingFrames = 0;
        uncommitted = true;
        if (socket == null) {
            if (held.size() >= HOLD_MESSAGES) {
                held.pollFirst();
            }
            held.addLast(message);
        } else if (!socket.writeQueueFull()) {
            socket.writeTextMessage(message);
        }
    }

    @Override
    public synchronized void finalizeNow() {
        if (closed) {
            return;
        }
        append();
        if (!uncommitted) {
            return;
        }
        uncommitted = false;
        String commit = "{\"type\":\"input_audio_buffer.commit\"}";
        if (socket == null) {
            held.addLast(commit);
        } else {
            socket.writeTextMessage(commit);
        }
    }

    @Override
    public synchronized double seconds() {
        return bytes / (double) format.bytes(1_000);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (socket != null) {
            socket.close();
        }
    }
}
