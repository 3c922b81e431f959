package dev.voiceagent.deploy.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Local stand-ins for the providers a call talks through, speaking their real protocols and checking what the service
 * sends, with fixed delays:
 * <ul>
 * <li>Deepgram live transcription (WebSocket /v1/listen): Authorization Token, audio only as binary frames, JSON
 * controls (KeepAlive, Finalize, CloseStream); on each Finalize it settles the next scripted caller line as a final
 * Results message after {@link #sttDelayMs} (an oracle: it knows what the simulated caller says).</li>
 * <li>ElevenLabs multi-context TTS (WebSocket /v1/text-to-speech/{voice}/multi-stream-input): xi-api-key, text frames
 * only, the first a single space with the voice settings and the key (its stream-input initialisation), at most 5 live
 * contexts (more is the provider's 1008 close); each flushed context answers with μ-law audio (60 ms per word, the
 * first after {@link #ttsDelayMs}) in 100 ms messages, each with its characters' alignment (times from the message's
 * start), and isFinal once it is closed.</li>
 * <li>OpenAI-compatible chat completions (POST /v1/chat/completions, stream true): the next scripted reply as server-sent
 * events, its first token after {@link #llmDelayMs}, tool calls in index deltas, the usage chunk, [DONE]; a client that
 * closes the stream early is counted as a cancellation.</li>
 * </ul>
 */
public class FakeVoiceProviders implements QuarkusTestResourceLifecycleManager {

    /** A scripted model reply: text streamed word by word (every {@code wordMs}), and/or one tool call. */
    public record Reply(String text, String tool, int wordMs, String arguments) {

        public static Reply says(String text) {
            return new Reply(text, null, 20, null);
        }

        public static Reply slowly(String text) {
            return new Reply(text, null, 150, null);
        }

        public static Reply calls(String tool) {
            return new Reply(null, tool, 20, "{}");
        }

        /** A call with its arguments (JSON), streamed in two fragments as providers do. */
        public static Reply calls(String tool, String arguments) {
            return new Reply(null, tool, 20, arguments);
        }
    }

    public static volatile String base;
    public static volatile int sttDelayMs = 150;
    public static volatile int llmDelayMs = 250;
    public static volatile int ttsDelayMs = 100;

    public static final Deque<String> CALLER_LINES = new ConcurrentLinkedDeque<>();
    /** When set, each Deepgram connection settles these lines in order, its own copy (many calls at once). */
    public static volatile List<String> callerScript = List.of();
    /** Replies chosen by the caller's last line (many calls at once); else the next of {@link #REPLIES}. */
    public static final Map<String, Reply> REPLY_FOR = new ConcurrentHashMap<>();
    public static final Deque<Reply> REPLIES = new ConcurrentLinkedDeque<>();
    public static final List<String> VIOLATIONS = new CopyOnWriteArrayList<>();

    public static final AtomicInteger STT_AUDIO_FRAMES = new AtomicInteger();
    public static final List<String> STT_CONTROL = new CopyOnWriteArrayList<>();
    public static final List<Long> STT_KEEPALIVES_AT = new CopyOnWriteArrayList<>();
    public static final List<String> STT_QUERIES = new CopyOnWriteArrayList<>();

    public static final List<JsonObject> CHAT_REQUESTS = new CopyOnWriteArrayList<>();
    /** The voicemail classifier's questions, and its answers in order (CONVERSATION when none is scripted). */
    public static final List<JsonObject> CLASSIFIER_REQUESTS = new CopyOnWriteArrayList<>();
    public static final Deque<String> VERDICTS = new ConcurrentLinkedDeque<>();
    public static final AtomicInteger CHAT_CANCELLED = new AtomicInteger();

    public static final List<String> TTS_QUERIES = new CopyOnWriteArrayList<>();
    public static final List<String> TTS_TEXTS = new CopyOnWriteArrayList<>();
    public static final AtomicInteger TTS_MAX_CONTEXTS = new AtomicInteger();

    private Vertx vertx;
    private HttpServer server;

    public static void reset() {
        sttDelayMs = 150;
        llmDelayMs = 250;
        ttsDelayMs = 100;
        CALLER_LINES.clear();
        callerScript = List.of();
        REPLY_FOR.clear();
        REPLIES.clear();
        VIOLATIONS.clear();
        STT_AUDIO_FRAMES.set(0);
        STT_CONTROL.clear();
        STT_KEEPALIVES_AT.clear();
        STT_QUERIES.clear();
        CHAT_REQUESTS.clear();
        CLASSIFIER_REQUESTS.clear();
        VERDICTS.clear();
        CHAT_CANCELLED.set(0);
        TTS_QUERIES.clear();
        TTS_TEXTS.clear();
        TTS_MAX_CONTEXTS.set(0);
        FakeRealtimeModel.reset();
    }

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(this::request);
        try {
            server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        base = "http://127.0.0.1:" + server.actualPort();
        return Map.of("voiceagent.models.openai-base-url", base + "/v1", "voiceagent.models.elevenlabs-base-url", base,
                "voiceagent.models.deepgram-base-url", base, "voiceagent.models.cartesia-base-url", base);
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }

    /** A provider's WebSocket: its credentials are checked before the upgrade, as the providers do. */
    private void upgrade(HttpServerRequest request) {
        String path = request.path();
        boolean deepgram = path.equals("/v1/listen");
        if (path.equals("/v2/listen")) { // Deepgram Flux
            String auth = request.getHeader("Authorization");
            if (auth == null || !auth.startsWith("Token ")) {
                request.response().setStatusCode(401).end();
                return;
            }
            String query = request.query();
            request.toWebSocket().onSuccess(ws -> {
                STT_QUERIES.add("v2?" + query);
                flux(ws);
            });
            return;
        }
        boolean elevenlabs = path.startsWith("/v1/text-to-speech/") && path.endsWith("/multi-stream-input");
        if (path.equals("/v1/realtime")) {
            if (request.getHeader("Authorization") == null || !request.getHeader("Authorization").startsWith("Bearer ")) {
                request.response().setStatusCode(401).end();
                return;
            }
            String query = request.query();
            request.toWebSocket().onSuccess(ws -> {
                if (query == null || !query.contains("intent=transcription")) {
                    FakeRealtimeModel.serve(vertx, ws, query); // speech-to-speech
                    return;
                }
                STT_QUERIES.add("realtime?" + query);
                openAiTranscription(ws);
            });
            return;
        }
        if (path.equals("/tts/websocket")) {
            if (request.getHeader("X-API-Key") == null || request.getHeader("Cartesia-Version") == null) {
                request.response().setStatusCode(401).end();
                return;
            }
            request.toWebSocket().onSuccess(this::cartesia);
            return;
        }
        if (!deepgram && !elevenlabs) {
            VIOLATIONS.add("a WebSocket to an unknown path: " + path);
            request.response().setStatusCode(404).end();
            return;
        }
        String auth = deepgram ? request.getHeader("Authorization") : request.getHeader("xi-api-key");
        if (auth == null || deepgram && !auth.startsWith("Token ")) {
            request.response().setStatusCode(401).end();
            return;
        }
        String query = request.query();
        request.toWebSocket().onSuccess(ws -> {
            if (deepgram) {
                STT_QUERIES.add(query);
                deepgram(ws);
            } else {
                TTS_QUERIES.add(query);
                elevenlabs(ws, query != null && query.contains("output_format=pcm_16000") ? 32 : 8);
            }
        });
    }

    // ---- Deepgram ----

    private void deepgram(ServerWebSocket ws) {
        Deque<String> own = new ConcurrentLinkedDeque<>(callerScript);
        ws.binaryMessageHandler(frame -> STT_AUDIO_FRAMES.incrementAndGet());
        ws.textMessageHandler(text -> {
            JsonObject message;
            try {
                message = new JsonObject(text);
            } catch (RuntimeException e) {
                VIOLATIONS.add("deepgram: a text frame that is not JSON (audio must be binary): " + shorten(text));
                return;
            }
            String type = message.getString("type", "");
            STT_CONTROL.add(type);
            switch (type) {
                case "KeepAlive" -> STT_KEEPALIVES_AT.add(System.currentTimeMillis());
                case "Finalize" -> {
                    String line = callerScript.isEmpty() ? CALLER_LINES.pollFirst() : own.pollFirst();
                    if (line != null) {
                        vertx.setTimer(sttDelayMs, t -> {
                            if (!ws.isClosed()) {
                                ws.writeTextMessage(new JsonObject().put("type", "Results").put("is_final", true)
                                        .put("speech_final", true).put("from_finalize", true)
                                        .put("channel", new JsonObject().put("alternatives", new JsonArray()
                                                .add(new JsonObject().put("transcript", line).put("confidence", 0.98))))
                                        .encode());
                            }
                        });
                    }
                }
                case "CloseStream" -> vertx.setTimer(20, t -> ws.close());
                default -> VIOLATIONS.add("deepgram: unknown control " + type);
            }
        });
    }

    // ---- Deepgram Flux ----

    /**
     * Flux (v2/listen): audio only as binary frames; {@code ForceEndTurn} ends the turn on the next caller line, an
     * {@code Update} first (its first word), then {@code EagerEndOfTurn} and {@code EndOfTurn} with the whole line (as
     * Flux's state machine has them: the end repeats the eager end's transcript); KeepAlive and Finalize are v1's and
     * unknown here.
     */
    private void flux(ServerWebSocket ws) {
        Deque<String> own = new ConcurrentLinkedDeque<>(callerScript);
        int[] turn = {0};
        ws.writeTextMessage(new JsonObject().put("type", "Connected").put("request_id", "flux-1").encode());
        ws.binaryMessageHandler(frame -> STT_AUDIO_FRAMES.incrementAndGet());
        ws.textMessageHandler(text -> {
            JsonObject message;
            try {
                message = new JsonObject(text);
            } catch (RuntimeException e) {
                VIOLATIONS.add("flux: a text frame that is not JSON (audio must be binary): " + shorten(text));
                return;
            }
            String type = message.getString("type", "");
            STT_CONTROL.add(type);
            switch (type) {
                case "ForceEndTurn" -> {
                    String line = callerScript.isEmpty() ? CALLER_LINES.pollFirst() : own.pollFirst();
                    int index = turn[0]++;
                    vertx.setTimer(sttDelayMs, t -> {
                        if (ws.isClosed()) {
                            return;
                        }
                        String said = line == null ? "" : line;
                        ws.writeTextMessage(new JsonObject().put("type", "TurnInfo").put("event", "Update")
                                .put("turn_index", index).put("transcript", said.split(" ")[0]).encode());
                        // the early end of turn, then the end that confirms it with the same transcript
                        ws.writeTextMessage(new JsonObject().put("type", "TurnInfo").put("event", "EagerEndOfTurn")
                                .put("turn_index", index).put("transcript", said)
                                .put("end_of_turn_confidence", 0.62).encode());
                        ws.writeTextMessage(new JsonObject().put("type", "TurnInfo").put("event", "EndOfTurn")
                                .put("turn_index", index).put("transcript", said)
                                .put("end_of_turn_confidence", 0.91).encode());
                    });
                }
                case "CloseStream" -> vertx.setTimer(20, t -> ws.close());
                default -> {
                    VIOLATIONS.add("flux: unknown control " + type);
                    ws.writeTextMessage(new JsonObject().put("type", "Error").put("code", "INVALID_MESSAGE")
                            .put("description", "Unknown message type " + type).encode());
                }
            }
        });
    }

    // ---- ElevenLabs ----

    private static final class Context {
        final StringBuilder text = new StringBuilder();
        boolean generated;
        boolean closeAsked;
        boolean finalSent;
    }

    /** ElevenLabs's stream; its audio μ-law 8 kHz (8 bytes a millisecond) or, asked pcm_16000, 16-bit PCM (32). */
    private void elevenlabs(ServerWebSocket ws, int bytesPerMs) {
        Map<String, Context> contexts = new HashMap<>();
        boolean[] initialised = {false};
        ws.binaryMessageHandler(b -> VIOLATIONS.add("elevenlabs: a binary frame"));
        ws.textMessageHandler(text -> {
            JsonObject m = new JsonObject(text);
            if (!initialised[0]) { // stream-input: a single space with the voice settings and the key comes first
                initialised[0] = true;
                if (!" ".equals(m.getString("text")) || m.containsKey("context_id")
                        || !(m.getValue("voice_settings") instanceof JsonObject) || m.getString("xi_api_key") == null) {
                    VIOLATIONS.add("elevenlabs: the socket's first message is not its initialisation: " + shorten(text));
                }
                return;
            }
            if (Boolean.TRUE.equals(m.getBoolean("close_socket"))) {
                ws.close();
                return;
            }
            String id = m.getString("context_id");
            if (id == null) {
                VIOLATIONS.add("elevenlabs: a message without context_id: " + shorten(text));
                return;
            }
            Context c = contexts.get(id);
            if (c == null) {
                c = new Context();
                contexts.put(id, c);
                long live = contexts.values().stream().filter(x -> !x.finalSent).count();
                TTS_MAX_CONTEXTS.accumulateAndGet((int) live, Math::max);
                if (live > 5) {
                    ws.close((short) 1008, "max_active_conversations");
                    return;
                }
            }
            Context context = c;
            if (m.getString("text") != null) {
                context.text.append(m.getString("text"));
            }
            if (Boolean.TRUE.equals(m.getBoolean("flush"))) {
                String said = context.text.toString().strip();
                TTS_TEXTS.add(said);
                int ms = 60 * Math.max(1, said.split("\\s+").length);
                byte[] audio = new byte[ms * bytesPerMs];
                for (int i = 0; i < audio.length; i++) {
                    audio[i] = bytesPerMs == 8 ? (byte) (i % 2 == 0 ? 0x1F : 0x9F) // a quiet buzz: enough to see
                            : (byte) (i % 2 == 0 ? 0 : (i / 8 % 2 == 0 ? 0x08 : 0xF8)); // in a recording; PCM ±2048
                }
                // where each character falls: a word every 60 ms, its characters (and the space after it) evenly in it
                String[] words = said.split("\\s+");
                List<Object[]> chars = new ArrayList<>();
                for (int w = 0; w < words.length; w++) {
                    String word = words[w] + (w < words.length - 1 ? " " : "");
                    int each = 60 / word.length();
                    for (int k = 0; k < word.length(); k++) {
                        chars.add(new Object[] {String.valueOf(word.charAt(k)), 60 * w + each * k, each});
                    }
                }
                vertx.setTimer(ttsDelayMs, t -> {
                    for (int at = 0; at < audio.length; at += 100 * bytesPerMs) {
                        byte[] chunk = Arrays.copyOfRange(audio, at, Math.min(audio.length,
                                at + 100 * bytesPerMs));
                        // the characters starting in this chunk, their times from the chunk's start (ElevenLabs's
                        // alignment restarts at zero in every message)
                        long from = at / bytesPerMs;
                        long to = from + chunk.length / bytesPerMs;
                        JsonArray letters = new JsonArray();
                        JsonArray starts = new JsonArray();
                        JsonArray durations = new JsonArray();
                        for (Object[] letter : chars) {
                            int start = (int) letter[1];
                            if (start >= from && start < to) {
                                letters.add(letter[0]);
                                starts.add(start - from);
                                durations.add(letter[2]);
                            }
                        }
                        if (!ws.isClosed()) {
                            ws.writeTextMessage(new JsonObject().put("audio", Base64.getEncoder().encodeToString(chunk))
                                    .put("alignment", new JsonObject().put("chars", letters)
                                            .put("charStartTimesMs", starts).put("charDurationsMs", durations))
                                    .put("contextId", id).encode());
                        }
                    }
                    context.generated = true;
                    finish(ws, id, context);
                });
            }
            if (Boolean.TRUE.equals(m.getBoolean("close_context"))) {
                context.closeAsked = true;
                finish(ws, id, context);
            }
        });
    }

    // ---- OpenAI realtime transcription ----

    /**
     * A transcription session: session.update first (transcription, audio/pcmu, no turn detection), then appends of
     * base64 μ-law; each commit settles the next caller line (delta, then completed), an empty buffer's commit is
     * OpenAI's input_audio_buffer_commit_empty error.
     */
    private void openAiTranscription(ServerWebSocket ws) {
        boolean[] configured = {false};
        long[] appended = {0};
        int[] items = {0};
        ws.binaryMessageHandler(b -> VIOLATIONS.add("openai transcription: a binary frame (audio goes base64)"));
        ws.textMessageHandler(text -> {
            JsonObject m = new JsonObject(text);
            String type = m.getString("type", "");
            if (!configured[0] && !"session.update".equals(type)) {
                VIOLATIONS.add("openai transcription: " + type + " before session.update");
            }
            switch (type) {
                case "session.update" -> {
                    configured[0] = true;
                    JsonObject input = m.getJsonObject("session", new JsonObject()).getJsonObject("audio",
                            new JsonObject()).getJsonObject("input", new JsonObject());
                    if (!"transcription".equals(m.getJsonObject("session").getString("type"))
                            || !"audio/pcmu".equals(input.getJsonObject("format", new JsonObject()).getString("type"))
                            || !input.containsKey("turn_detection") || input.getValue("turn_detection") != null
                            || input.getJsonObject("transcription", new JsonObject()).getString("model") == null) {
                        VIOLATIONS.add("openai transcription: a session the phone path should not ask for: " + text);
                    }
                    STT_CONTROL.add("session:" + input.getJsonObject("transcription").getString("model"));
                }
                case "input_audio_buffer.append" -> {
                    int bytes = Base64.getDecoder().decode(m.getString("audio", "")).length;
                    appended[0] += bytes;
                    STT_AUDIO_FRAMES.addAndGet(bytes / 160);
                }
                case "input_audio_buffer.commit" -> {
                    STT_CONTROL.add("Finalize");
                    if (appended[0] == 0) {
                        ws.writeTextMessage(new JsonObject().put("type", "error").put("error", new JsonObject()
                                .put("type", "invalid_request_error").put("code", "input_audio_buffer_commit_empty")
                                .put("message", "buffer too small")).encode());
                        return;
                    }
                    appended[0] = 0;
                    String item = "item_" + ++items[0];
                    ws.writeTextMessage(new JsonObject().put("type", "input_audio_buffer.committed")
                            .put("item_id", item).encode());
                    String line = CALLER_LINES.pollFirst();
                    vertx.setTimer(sttDelayMs, t -> {
                        if (ws.isClosed()) {
                            return;
                        }
                        String said = line == null ? "" : line;
                        int half = said.indexOf(' ') < 0 ? said.length() : said.indexOf(' ');
                        ws.writeTextMessage(new JsonObject().put("type",
                                "conversation.item.input_audio_transcription.delta").put("item_id", item)
                                .put("delta", said.substring(0, half)).encode());
                        ws.writeTextMessage(new JsonObject().put("type",
                                "conversation.item.input_audio_transcription.completed").put("item_id", item)
                                .put("transcript", said).encode());
                    });
                }
                default -> VIOLATIONS.add("openai transcription: unknown event " + type);
            }
        });
    }

    // ---- Cartesia ----

    /** Cartesia's TTS WebSocket: each request a whole sentence (continue false), its chunks, timestamps, done. */
    private void cartesia(ServerWebSocket ws) {
        Set<String> cancelled = ConcurrentHashMap.newKeySet();
        ws.binaryMessageHandler(b -> VIOLATIONS.add("cartesia: a binary frame"));
        ws.textMessageHandler(text -> {
            JsonObject m = new JsonObject(text);
            String id = m.getString("context_id");
            if (id == null) {
                VIOLATIONS.add("cartesia: a message without context_id: " + shorten(text));
                return;
            }
            if (Boolean.TRUE.equals(m.getBoolean("cancel"))) {
                cancelled.add(id);
                return;
            }
            JsonObject format = m.getJsonObject("output_format", new JsonObject());
            if (!"raw".equals(format.getString("container")) || !"pcm_mulaw".equals(format.getString("encoding"))
                    || format.getInteger("sample_rate", 0) != 8_000 || !Boolean.FALSE.equals(m.getBoolean("continue"))
                    || m.getJsonObject("voice") == null || m.getString("model_id") == null) {
                VIOLATIONS.add("cartesia: a request the phone path should not make: " + shorten(text));
            }
            String said = m.getString("transcript", "").strip();
            TTS_TEXTS.add(said);
            TTS_QUERIES.add("cartesia " + m.getString("model_id") + " " + format.getString("encoding"));
            String[] words = said.split("\\s+");
            byte[] audio = new byte[60 * Math.max(1, words.length) * 8];
            for (int i = 0; i < audio.length; i++) {
                audio[i] = (byte) (i % 2 == 0 ? 0x1F : 0x9F);
            }
            JsonArray starts = new JsonArray();
            JsonArray ends = new JsonArray();
            for (int w = 0; w < words.length; w++) {
                starts.add(w * 0.06);
                ends.add(w * 0.06 + 0.05);
            }
            vertx.setTimer(ttsDelayMs, t -> {
                for (int at = 0; at < audio.length && !ws.isClosed() && !cancelled.contains(id); at += 800) {
                    byte[] chunk = Arrays.copyOfRange(audio, at, Math.min(audio.length, at + 800));
                    ws.writeTextMessage(new JsonObject().put("type", "chunk").put("context_id", id).put("done", false)
                            .put("data", Base64.getEncoder().encodeToString(chunk)).encode());
                    if (at == 0) {
                        ws.writeTextMessage(new JsonObject().put("type", "timestamps").put("context_id", id)
                                .put("word_timestamps", new JsonObject().put("words", new JsonArray(List.of(
                                        (Object[]) words))).put("start", starts).put("end", ends)).encode());
                    }
                }
                if (!ws.isClosed()) {
                    ws.writeTextMessage(new JsonObject().put("type", "done").put("context_id", id).encode());
                }
            });
        });
    }

    private static void finish(ServerWebSocket ws, String id, Context context) {
        if (context.generated && context.closeAsked && !context.finalSent) {
            context.finalSent = true;
            if (!ws.isClosed()) {
                ws.writeTextMessage(new JsonObject().put("isFinal", true).put("contextId", id).encode());
            }
        }
    }

    // ---- OpenAI-compatible chat completions ----

    private void request(HttpServerRequest request) {
        if ("websocket".equalsIgnoreCase(request.getHeader("Upgrade"))) {
            upgrade(request);
            return;
        }
        if (!request.path().equals("/v1/chat/completions") || !"POST".equals(request.method().name())) {
            request.response().setStatusCode(404).end();
            return;
        }
        request.body().onSuccess(body -> {
            JsonObject json = body.toJsonObject();
            if (!Boolean.TRUE.equals(json.getBoolean("stream")) && json.encode().contains("voicemail detection")) {
                CLASSIFIER_REQUESTS.add(json); // the voicemail classifier: one answer, not streamed
                String verdict = VERDICTS.isEmpty() ? "CONVERSATION" : VERDICTS.pollFirst();
                vertx.setTimer(llmDelayMs, t -> request.response().putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("id", "cmpl-vm").put("object", "chat.completion")
                                .put("choices", new JsonArray().add(new JsonObject().put("index", 0)
                                        .put("message", new JsonObject().put("role", "assistant")
                                                .put("content", verdict)).put("finish_reason", "stop")))
                                .put("usage", new JsonObject().put("prompt_tokens", 120).put("completion_tokens", 2)
                                        .put("total_tokens", 122)).encode()));
                return;
            }
            CHAT_REQUESTS.add(json);
            if (!Boolean.TRUE.equals(json.getBoolean("stream"))) {
                VIOLATIONS.add("chat: a voice call's completion that is not streamed");
            }
            Reply reply = REPLY_FOR.isEmpty() ? REPLIES.pollFirst()
                    : REPLY_FOR.getOrDefault(lastUserText(json), Reply.says("Sorry, could you say that again?"));
            if (reply == null) {
                request.response().setStatusCode(500).end("{\"error\":{\"message\":\"no scripted reply\"}}");
                return;
            }
            var response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            boolean[] ended = {false};
            response.closeHandler(v -> {
                if (!ended[0]) {
                    CHAT_CANCELLED.incrementAndGet();
                }
            });
            List<String> events = new ArrayList<>();
            if (reply.text() != null) {
                String[] words = reply.text().split(" ");
                for (int i = 0; i < words.length; i++) {
                    events.add(chunk(new JsonObject().put("content", (i == 0 ? "" : " ") + words[i]), null));
                }
            }
            if (reply.tool() != null) {
                events.add(chunk(new JsonObject().put("tool_calls", new JsonArray().add(new JsonObject().put("index", 0)
                        .put("id", "call_1").put("type", "function").put("function", new JsonObject()
                                .put("name", reply.tool()).put("arguments", "")))), null));
                String arguments = reply.arguments();
                int half = arguments.length() / 2;
                for (String fragment : List.of(arguments.substring(0, half), arguments.substring(half))) {
                    events.add(chunk(new JsonObject().put("tool_calls", new JsonArray().add(new JsonObject()
                            .put("index", 0).put("function", new JsonObject().put("arguments", fragment)))), null));
                }
            }
            events.add(chunk(new JsonObject(), reply.tool() != null ? "tool_calls" : "stop"));
            events.add(new JsonObject().put("choices", new JsonArray()).put("usage", new JsonObject()
                    .put("prompt_tokens", 50).put("completion_tokens", 10).put("total_tokens", 60)).encode());
            events.add("[DONE]");
            for (int i = 0; i < events.size(); i++) {
                String event = events.get(i);
                boolean last = i == events.size() - 1;
                vertx.setTimer(llmDelayMs + (long) i * reply.wordMs(), t -> {
                    if (ended[0] || request.connection() == null || response.closed()) {
                        return;
                    }
                    response.write("data: " + event + "\n\n");
                    if (last) {
                        ended[0] = true;
                        response.end();
                    }
                });
            }
        });
    }

    private static String lastUserText(JsonObject request) {
        JsonArray messages = request.getJsonArray("messages", new JsonArray());
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonObject m = messages.getJsonObject(i);
            if ("user".equals(m.getString("role"))) {
                return m.getString("content", "");
            }
        }
        return "";
    }

    private static String chunk(JsonObject delta, String finish) {
        return new JsonObject().put("choices", new JsonArray().add(new JsonObject().put("index", 0)
                .put("delta", delta).put("finish_reason", finish))).encode();
    }

    private static String shorten(String text) {
        return text.length() > 80 ? text.substring(0, 80) + "..." : text;
    }
}
