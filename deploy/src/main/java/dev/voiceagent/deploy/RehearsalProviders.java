package dev.voiceagent.deploy;

import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * STAND-INS of the providers a rehearsed call talks to (the warm-up's calls, never a tenant's): one server on the
 * loopback, on a port the system picks, answering the replica's own adapters in their providers' protocols, so that a
 * rehearsed call runs the code a real call runs, up to the socket:
 * <ul>
 * <li>Deepgram's live transcription ({@code /v1/listen}, a WebSocket): the caller's audio as binary frames in the
 * query's encoding; an interim {@code Results} with the line's first words once 200 ms of voiced audio came, and every
 * 300 ms after; each {@code Finalize} answered by a final (is_final, speech_final, from_finalize) with the next line
 * the caller says, or an empty one when nothing voiced came since the last;</li>
 * <li>OpenAI's chat completions ({@code POST /v1/chat/completions}, stream true): the reply to the request's turn (its
 * greeting, then one for each of the caller's messages) as
 * server-sent events, a word a chunk, then the usage and {@code [DONE]};</li>
 * <li>ElevenLabs's multi-context text-to-speech ({@code /v1/text-to-speech/{voice}/multi-stream-input}): after the
 * initialisation, each context's flushed text as audio in the query's output format (60 ms a word, in 100 ms
 * messages with each character's alignment), then {@code isFinal} once the context was closed.</li>
 * </ul>
 * What it answers is the rehearsal's own: the lines the rehearsal's callers say and the replies given.
 */
final class RehearsalProviders {

    private static final double VOICED_DBFS = -40;

    private final Vertx vertx;
    private final List<String> heard;
    private final List<String> replies;
    /** What the stand-ins were asked: chat completions, transcripts given, sentences spoken. */
    final AtomicInteger chats = new AtomicInteger();
    final AtomicInteger finals = new AtomicInteger();
    final AtomicInteger spoken = new AtomicInteger();
    private HttpServer server;

    private RehearsalProviders(Vertx vertx, List<String> heard, List<String> replies) {
        this.vertx = vertx;
        this.heard = List.copyOf(heard);
        this.replies = List.copyOf(replies);
    }

    /**
     * Listening once the future completes: the recognizer hears {@code heard} in order, the model says
     * {@code replies}.
     */
    static Future<RehearsalProviders> start(Vertx vertx, List<String> heard, List<String> replies) {
        RehearsalProviders providers = new RehearsalProviders(vertx, heard, replies);
        providers.server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                .requestHandler(providers::request);
        return providers.server.listen().map(s -> providers);
    }

    /** The stand-ins' address (http; the adapters make it ws for their sockets). */
    String url() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    Future<Void> close() {
        return server.close();
    }

    private void request(HttpServerRequest request) {
        String path = request.path();
        if ("websocket".equalsIgnoreCase(request.getHeader("Upgrade"))) {
            String query = String.valueOf(request.query());
            if (path.equals("/v1/listen")) {
                request.toWebSocket().onSuccess(ws -> listen(ws, query.contains("encoding=mulaw")));
            } else if (path.startsWith("/v1/text-to-speech/") && path.endsWith("/multi-stream-input")) {
                request.toWebSocket().onSuccess(ws -> speak(ws, query.contains("output_format=ulaw_8000") ? 8 : 32));
            } else {
                request.response().setStatusCode(404).end();
            }
            return;
        }
        if (path.equals("/v1/chat/completions") && "POST".equals(request.method().name())) {
            request.body().onSuccess(body -> chat(request.response(), body.toJsonObject()));
            return;
        }
        request.response().setStatusCode(404).end();
    }

    // ---- Deepgram ----

    private void listen(ServerWebSocket ws, boolean mulaw) {
        int[] line = {0};
        int[] voiced = {0};
        ws.binaryMessageHandler(frame -> {
            byte[] bytes = frame.getBytes();
            short[] samples = mulaw ? G711.decode(bytes) : pcm(bytes);
            if (Loudness.dbfs(samples) <= VOICED_DBFS) {
                return;
            }
            voiced[0]++;
            // 20 ms frames: words after 200 ms of speech, then every 300 ms, as a recognizer's interim results come
            if (voiced[0] >= 10 && (voiced[0] - 10) % 15 == 0 && !ws.isClosed()) {
                String[] words = heard.get(line[0] % heard.size()).split(" ");
                int said = Math.min(words.length, 1 + (voiced[0] - 10) / 15 * 2);
                ws.writeTextMessage(results(String.join(" ", Arrays.copyOf(words, said)), false));
            }
        });
        ws.textMessageHandler(text -> {
            String type = new JsonObject(text).getString("type", "");
            switch (type) {
                case "Finalize" -> {
                    String transcript = voiced[0] > 0 ? heard.get(line[0]++ % heard.size()) : "";
                    voiced[0] = 0;
                    if (!ws.isClosed()) {
                        if (!transcript.isEmpty()) {
                            finals.incrementAndGet();
                        }
                        ws.writeTextMessage(results(transcript, true));
                    }
                }
                case "CloseStream" -> ws.close();
                default -> { } // KeepAlive
            }
        });
    }

    private static String results(String transcript, boolean fin) {
        return new JsonObject().put("type", "Results").put("is_final", fin).put("speech_final", fin)
                .put("from_finalize", fin).put("channel", new JsonObject().put("alternatives", new JsonArray()
                        .add(new JsonObject().put("transcript", transcript).put("confidence", 0.98)))).encode();
    }

    private static short[] pcm(byte[] bytes) {
        short[] samples = new short[bytes.length / 2];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = (short) (bytes[2 * i] & 0xFF | bytes[2 * i + 1] << 8);
        }
        return samples;
    }

    // ---- OpenAI ----

    /** The reply to the call's turn: its greeting first, then one for each of the caller's lines so far. */
    private void chat(HttpServerResponse response, JsonObject request) {
        chats.incrementAndGet();
        JsonArray messages = request.getJsonArray("messages", new JsonArray());
        int turn = 0;
        for (int i = 0; i < messages.size(); i++) {
            if ("user".equals(messages.getJsonObject(i).getString("role"))) {
                turn++;
            }
        }
        String[] words = replies.get(Math.min(turn, replies.size() - 1)).split(" ");
        response.setChunked(true).putHeader("Content-Type", "text/event-stream");
        List<String> events = new ArrayList<>();
        for (int i = 0; i < words.length; i++) {
            events.add(chunk(new JsonObject().put("content", (i == 0 ? "" : " ") + words[i]), null));
        }
        events.add(chunk(new JsonObject(), "stop"));
        events.add(new JsonObject().put("choices", new JsonArray()).put("usage", new JsonObject()
                .put("prompt_tokens", 50).put("completion_tokens", words.length)
                .put("total_tokens", 50 + words.length)).encode());
        events.add("[DONE]");
        int[] next = {0};
        vertx.setPeriodic(1, 10, timer -> {
            if (response.closed() || next[0] >= events.size()) {
                vertx.cancelTimer(timer);
                return;
            }
            response.write("data: " + events.get(next[0]++) + "\n\n");
            if (next[0] == events.size()) {
                response.end();
                vertx.cancelTimer(timer);
            }
        });
    }

    private static String chunk(JsonObject delta, String finish) {
        return new JsonObject().put("id", "chatcmpl-rehearsal").put("object", "chat.completion.chunk")
                .put("model", "rehearsal").put("choices", new JsonArray().add(new JsonObject().put("index", 0)
                        .put("delta", delta).put("finish_reason", finish))).encode();
    }

    // ---- ElevenLabs ----

    /** One context's text so far, and whether its audio went out and its close was asked. */
    private static final class Utterance {
        final StringBuilder text = new StringBuilder();
        boolean generated;
        boolean closeAsked;
        boolean finalSent;
    }

    private void speak(ServerWebSocket ws, int bytesPerMs) {
        Map<String, Utterance> utterances = new HashMap<>();
        boolean[] initialised = {false};
        ws.textMessageHandler(text -> {
            JsonObject m = new JsonObject(text);
            if (!initialised[0]) { // the initialisation: a space, the voice's settings, the key
                initialised[0] = true;
                return;
            }
            if (Boolean.TRUE.equals(m.getBoolean("close_socket"))) {
                ws.close();
                return;
            }
            String id = m.getString("context_id");
            if (id == null) {
                return;
            }
            Utterance utterance = utterances.computeIfAbsent(id, k -> new Utterance());
            if (m.getString("text") != null) {
                utterance.text.append(m.getString("text"));
            }
            if (Boolean.TRUE.equals(m.getBoolean("flush"))) {
                String said = utterance.text.toString().strip();
                vertx.setTimer(20, t -> {
                    audio(ws, id, said, bytesPerMs);
                    spoken.incrementAndGet();
                    utterance.generated = true;
                    finish(ws, id, utterance);
                });
            }
            if (Boolean.TRUE.equals(m.getBoolean("close_context"))) {
                utterance.closeAsked = true;
                finish(ws, id, utterance);
            }
        });
    }

    /** The sentence's audio, a word every 60 ms (a quiet buzz), in 100 ms messages with its characters' timings. */
    private static void audio(ServerWebSocket ws, String id, String said, int bytesPerMs) {
        String[] words = said.isEmpty() ? new String[0] : said.split("\\s+");
        byte[] audio = new byte[60 * Math.max(1, words.length) * bytesPerMs];
        for (int i = 0; i < audio.length; i++) {
            audio[i] = bytesPerMs == 8 ? (byte) (i % 2 == 0 ? 0x1F : 0x9F)
                    : (byte) (i % 2 == 0 ? 0 : (i / 8 % 2 == 0 ? 0x08 : 0xF8));
        }
        for (int at = 0; at < audio.length && !ws.isClosed(); at += 100 * bytesPerMs) {
            byte[] chunk = Arrays.copyOfRange(audio, at, Math.min(audio.length, at + 100 * bytesPerMs));
            long from = at / bytesPerMs;
            long to = from + chunk.length / bytesPerMs;
            JsonArray letters = new JsonArray();
            JsonArray starts = new JsonArray();
            JsonArray durations = new JsonArray();
            for (int w = 0; w < words.length; w++) {
                String word = words[w] + (w < words.length - 1 ? " " : "");
                int each = 60 / word.length();
                for (int k = 0; k < word.length(); k++) {
                    int start = 60 * w + each * k;
                    if (start >= from && start < to) {
                        letters.add(String.valueOf(word.charAt(k)));
                        starts.add(start - from);
                        durations.add(each);
                    }
                }
            }
            ws.writeTextMessage(new JsonObject().put("audio", Base64.getEncoder().encodeToString(chunk))
                    .put("alignment", new JsonObject().put("chars", letters).put("charStartTimesMs", starts)
                            .put("charDurationsMs", durations)).put("contextId", id).encode());
        }
    }

    private static void finish(ServerWebSocket ws, String id, Utterance utterance) {
        if (utterance.generated && utterance.closeAsked && !utterance.finalSent) {
            utterance.finalSent = true;
            if (!ws.isClosed()) {
                ws.writeTextMessage(new JsonObject().put("isFinal", true).put("contextId", id).encode());
            }
        }
    }
}
