package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One call's OpenAI realtime transcription session ({@code /realtime?intent=transcription}): a
 * {@code session.update} of type transcription with the call's μ-law as {@code audio/pcmu} (a browser's PCM resampled to
 * {@code audio/pcm} at 24 kHz), the model and language,
 * and no turn detection (our voice activity decides turns); the caller's audio appended every 100 ms
 * ({@code input_audio_buffer.append}); at the end of a turn what is pending is appended and the buffer committed, and
 * the item's {@code ...input_audio_transcription.delta} and {@code .completed} events become interim and final
 * transcripts.
 *
 * <p>The socket outlives its connection ({@link ProviderSocket}): each turn's audio is kept until its transcription
 * completed (at most {@link #UNSETTLED_MS} in all), and every socket, the first and one opened again after a drop,
 * gets the session first, then each committed turn still without its transcript (appended and committed again), then
 * the audio of the turn in progress: a turn said across a drop is transcribed once, on the new socket.
 */
final class OpenAiTranscription extends ProviderSocket implements SpeechToText.Stream {

    private static final System.Logger LOG = System.getLogger(OpenAiTranscription.class.getName());
    /** The most caller audio kept for a socket opened again. */
    static final int UNSETTLED_MS = 15_000;
    /** Frames of 20 ms per append: 100 ms, five times fewer messages than frames. */
    static final int FRAMES_PER_APPEND = 5;
    private static final String COMMIT = "{\"type\":\"input_audio_buffer.commit\"}";

    /** A turn's audio as appended (pieces of 100 ms), and the item its commit became on this socket. */
    private static final class Turn {
        final List<byte[]> pieces = new ArrayList<>();
        String item;
        int bytes;
    }

    /** The rate OpenAI takes 16-bit PCM at ({@code audio/pcm}): a browser's 16 kHz is resampled to it. */
    static final int PCM_RATE = 24_000;

    private final SpeechToText.Listener listener;
    private final AudioFormat format;
    /** What goes on the wire: the phone's μ-law as it is, or PCM at {@link #PCM_RATE}. */
    private final AudioFormat wire;
    private final Resampler resampler;
    private final JsonObject session;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final Map<String, StringBuilder> partial = new HashMap<>();
    /** Committed turns whose transcription has not completed, oldest first. */
    private final Deque<Turn> committed = new ArrayDeque<>();
    private Turn current = new Turn();
    private int pendingFrames;
    private long bytes;

    OpenAiTranscription(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            String provider, JsonObject session, SpeechToText.Listener listener) {
        super(connect, vertx, budget, provider);
        this.format = format;
        boolean pcm = format.encoding() == AudioFormat.Encoding.PCM16LE;
        this.wire = pcm ? new AudioFormat(AudioFormat.Encoding.PCM16LE, PCM_RATE) : format;
        this.resampler = pcm && format.sampleRate() != PCM_RATE ? new Resampler(format.sampleRate(), PCM_RATE) : null;
        this.session = session;
        this.listener = listener;
        connect();
    }

    /** The session's configuration: a transcription session on the call's μ-law, turns decided by the caller. */
    static JsonObject session(String model, String language) {
        return session(model, language, List.of());
    }

    /** As above; the words to expect (a workflow's dictionary) go in the transcription's prompt. */
    static JsonObject session(String model, String language, List<String> keyterms) {
        return session(model, language, keyterms, AudioFormat.MULAW_8K);
    }

    /**
     * As above, for the call's audio: a phone's μ-law as {@code audio/pcmu}, a browser's PCM as {@code audio/pcm} at
     * {@link #PCM_RATE} (what OpenAI takes; the adapter resamples it).
     */
    static JsonObject session(String model, String language, List<String> keyterms, AudioFormat call) {
        JsonObject transcription = new JsonObject().put("model", model);
        if (language != null && !language.isBlank() && !"multi".equals(language)) {
            transcription.put("language", language);
        }
        if (!keyterms.isEmpty()) {
            transcription.put("prompt", "Words that may be said: " + String.join(", ", keyterms) + ".");
        }
        return new JsonObject().put("type", "session.update").put("session", new JsonObject()
                .put("type", "transcription").put("audio", new JsonObject().put("input", new JsonObject()
                        .put("format", call.encoding() == AudioFormat.Encoding.MULAW
                                ? new JsonObject().put("type", "audio/pcmu")
                                : new JsonObject().put("type", "audio/pcm").put("rate", PCM_RATE))
                        .put("transcription", transcription).putNull("turn_detection"))));
    }

    @Override
    protected synchronized void opened(WebSocket ws) {
        ws.writeTextMessage(session.encode());
        partial.clear();
        for (Turn turn : committed) {
            turn.item = null; // the old socket's items are gone: the commit makes a new one
            turn.pieces.forEach(piece -> ws.writeTextMessage(append(piece)));
            ws.writeTextMessage(COMMIT);
        }
        current.pieces.forEach(piece -> ws.writeTextMessage(append(piece)));
    }

    @Override
    protected boolean dropped() {
        return true;
    }

    @Override
    protected void failed(String message) {
        listener.failed(message);
    }

    @Override
    protected void message(String text) {
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        String type = json.getString("type", "");
        switch (type) {
            case "input_audio_buffer.committed" -> itemOf(json.getString("item_id"));
            case "conversation.item.input_audio_transcription.delta" -> {
                String delta = json.getString("delta", "");
                String so = partial(json.getString("item_id"), delta);
                if (!so.isBlank()) {
                    listener.transcript(so.strip(), false);
                }
            }
            case "conversation.item.input_audio_transcription.completed" -> {
                transcribed(json.getString("item_id"));
                String transcript = json.getString("transcript", "");
                if (!transcript.isBlank()) {
                    listener.transcript(transcript.strip(), true);
                }
            }
            case "conversation.item.input_audio_transcription.failed" -> {
                transcribed(json.getString("item_id"));
                JsonObject error = json.getJsonObject("error", new JsonObject());
                LOG.log(System.Logger.Level.WARNING, "{0} could not transcribe a turn: {1}", provider,
                        error.getString("message", "no reason given"));
            }
            case "error" -> {
                JsonObject error = json.getJsonObject("error", new JsonObject());
                if ("input_audio_buffer_commit_empty".equals(error.getString("code"))) {
                    transcribed(null); // a turn too short to transcribe: nothing was said
                    return;
                }
                giveUp(provider + ": " + error.getString("message", "an error"));
            }
            default -> {
                // session.created/updated, and whatever comes later
            }
        }
    }

    /** A commit became an item: the oldest committed turn without one. */
    private synchronized void itemOf(String item) {
        for (Turn turn : committed) {
            if (turn.item == null) {
                turn.item = item;
                return;
            }
        }
    }

    /** A turn's transcription completed (or failed, or its commit was empty): its audio is settled. */
    private synchronized void transcribed(String item) {
        forget(item);
        Turn done = null;
        for (Turn turn : committed) {
            if (item != null && item.equals(turn.item)) {
                done = turn;
                break;
            }
        }
        if (done == null) { // the item was never named: the oldest turn not yet matched to another
            done = committed.stream().filter(t -> t.item == null).findFirst().orElse(committed.peekFirst());
        }
        if (done != null) {
            committed.remove(done);
        }
    }

    private synchronized String partial(String item, String delta) {
        StringBuilder so = partial.computeIfAbsent(String.valueOf(item), i -> new StringBuilder());
        so.append(delta);
        return so.toString();
    }

    private void forget(String item) {
        partial.remove(String.valueOf(item));
    }

    @Override
    public synchronized void audio(byte[] frame) {
        if (closed) {
            return;
        }
        bytes += frame.length;
        pending.writeBytes(resampler == null ? frame : Pcm16.bytes(resampler.process(Pcm16.samples(frame))));
        if (++pendingFrames >= FRAMES_PER_APPEND) {
            appendPending();
        }
    }

    /** What is pending becomes a piece of the turn in progress, appended now if a socket is open. */
    private void appendPending() {
        if (pending.size() == 0) {
            return;
        }
        byte[] piece = pending.toByteArray();
        pending.reset();
        pendingFrames = 0;
        current.pieces.add(piece);
        current.bytes += piece.length;
        bound();
        WebSocket ws = socket();
        if (ws != null && !ws.writeQueueFull()) {
            ws.writeTextMessage(append(piece));
        }
    }

    /** Keeps at most {@link #UNSETTLED_MS} of audio: the oldest committed turns go first, then the oldest pieces. */
    private void bound() {
        long kept = current.bytes;
        for (Turn turn : committed) {
            kept += turn.bytes;
        }
        while (kept > wire.bytes(UNSETTLED_MS) && !committed.isEmpty()) {
            kept -= committed.pollFirst().bytes;
        }
        while (kept > wire.bytes(UNSETTLED_MS) && current.pieces.size() > 1) {
            byte[] oldest = current.pieces.removeFirst();
            current.bytes -= oldest.length;
            kept -= oldest.length;
        }
    }

    private static String append(byte[] piece) {
        return new JsonObject().put("type", "input_audio_buffer.append")
                .put("audio", Base64.getEncoder().encodeToString(piece)).encode();
    }

    @Override
    public synchronized void finalizeNow() {
        if (closed) {
            return;
        }
        appendPending();
        if (current.pieces.isEmpty()) {
            return; // nothing since the last commit
        }
        committed.addLast(current);
        current = new Turn();
        WebSocket ws = socket();
        if (ws != null) {
            ws.writeTextMessage(COMMIT);
        }
    }

    @Override
    public synchronized double seconds() {
        return bytes / (double) format.bytes(1_000);
    }

    @Override
    public void close() {
        shut(null, 0);
    }
}
