package dev.voiceagent.deploy.support;

import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.impl.ConnectionBase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * closes the stream early is counted as a cancellation. The same at /fallback/v1 (another provider's base URL, for a
 * configuration's fallback model), whose requests are kept apart ({@link #FALLBACK_CHAT_REQUESTS}).</li>
 * <li>Deepgram Aura (POST /v1/speak?model=...&amp;encoding=mulaw&amp;sample_rate=8000&amp;container=none, a JSON body
 * {"text"}, Authorization Token): the sentence's raw μ-law (60 ms a word) streamed in 100 ms chunks after
 * {@link #ttsDelayMs}, with Deepgram's dg-request-id and dg-char-count headers.</li>
 * </ul>
 * By default every provider answers every request. {@link #faults()} (any call) or {@link #FAULTS} by credential (a
 * benchmark gives each call its own keys) make them fail as real providers do, each fault recorded in
 * {@link #INJECTED}: a refused upgrade or request (503, 429 with Retry-After, 500), a socket dropped without a close
 * frame in the middle of a caller's line or of a sentence's audio, a model that stalls (headers, then nothing) or whose
 * stream breaks half way (the next request, a continuation or the same one asked again, gets the rest), a provider down
 * for good. With {@link #hearing} set the recognizers hear the caller's lines from the audio they were sent
 * ({@link HeardLines}) rather than by the script's order, so a line is understood only if its audio reached the socket
 * that answers. What each provider served is metered as they would bill it ({@link #SPOKEN}, {@link #TOKENS_SENT},
 * {@link #STT_BYTES}), by credential.
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
    /** When each Deepgram (v1) socket was accepted (ms, this clock). */
    public static final List<Long> STT_OPENED_AT = new CopyOnWriteArrayList<>();

    public static final List<JsonObject> CHAT_REQUESTS = new CopyOnWriteArrayList<>();
    /** The voicemail classifier's questions, and its answers in order (CONVERSATION when none is scripted). */
    public static final List<JsonObject> CLASSIFIER_REQUESTS = new CopyOnWriteArrayList<>();
    public static final Deque<String> VERDICTS = new ConcurrentLinkedDeque<>();
    public static final AtomicInteger CHAT_CANCELLED = new AtomicInteger();

    public static final List<String> TTS_QUERIES = new CopyOnWriteArrayList<>();
    public static final List<String> TTS_TEXTS = new CopyOnWriteArrayList<>();
    public static final AtomicInteger TTS_MAX_CONTEXTS = new AtomicInteger();

    /** The chat requests that reached /fallback/v1 (another provider's address). */
    public static final List<JsonObject> FALLBACK_CHAT_REQUESTS = new CopyOnWriteArrayList<>();
    /** Every upgrade or request refused, by provider: "deepgram 503", "elevenlabs 503", "chat 500", "aura 500". */
    public static final List<String> REFUSED = new CopyOnWriteArrayList<>();

    /** The credential faults apply to when a call's own is not in {@link #FAULTS}. */
    public static final String ANY = "*";
    /** Fault plans by the credential a connection or request carries (its key), or {@link #ANY}. */
    public static final Map<String, Faults> FAULTS = new ConcurrentHashMap<>();
    /** Every fault injected, in order. */
    public static final List<Injected> INJECTED = new CopyOnWriteArrayList<>();
    /**
     * Characters each voice sent audio for, by credential and sentence (a context id, or a request for Aura), each
     * sentence once however many sockets spoke it, and only when its audio went out to its end: what a caller heard
     * whole and a voice bills.
     */
    public static final Map<String, Map<String, Integer>> SPOKEN = new ConcurrentHashMap<>();
    /** Tokens of the chat usage chunks sent, by credential (a stream that broke sent none). */
    public static final Map<String, AtomicLong> TOKENS_SENT = new ConcurrentHashMap<>();
    /** The caller's audio each recognizer received, by credential, in bytes (audio sent again after a drop too). */
    public static final Map<String, AtomicLong> STT_BYTES = new ConcurrentHashMap<>();
    /** When set, the recognizers (Deepgram v1, OpenAI transcription) hear these lines from the audio itself. */
    public static volatile HeardLines hearing;
    /**
     * Script mode (Deepgram v1), by the credential a call's socket carries (its workflow's own key): the call's caller
     * registers what it says and when ({@link CallerTimeline}), and the recognizer answers from the position of the
     * audio it received, as Deepgram would: interim results while a segment lasts, finals on Finalize.
     */
    public static final Map<String, CallerTimeline> TIMELINES = new ConcurrentHashMap<>();
    /** Every streamed chat request by credential: when it came (ms, this clock) and its last user message. */
    public static final Map<String, List<ChatAsked>> CHATS = new ConcurrentHashMap<>();

    /** Script mode's recognizer events by credential: when (ms, this clock) and what (Finalize, interim, final). */
    public static final Map<String, List<String>> STT_EVENTS = new ConcurrentHashMap<>();
    /**
     * With no reply for the caller's exact last message, the reply of the {@link #REPLY_FOR} line it ends with (the
     * longest), as a model answers the last question of lines joined into one turn; off: "Sorry, could you say that
     * again?".
     */
    public static volatile boolean replyToLastLine;

    /** A streamed chat request: when it came (ms, this clock) and its last user message. */
    public record ChatAsked(long at, String lastUser) {
    }

    /** A fault injected: whose (credential), which provider (stt, llm, tts), what, and when (ms, this clock). */
    public record Injected(String credential, String provider, String fault, long at) {
    }

    /** How a streamed chat request fails: refused (status, Retry-After), stalled (headers only), or broken. */
    public record ChatFault(int status, String retryAfter, boolean stalls, int breakAfterWords) {

        public static ChatFault refused(int status) {
            return new ChatFault(status, null, false, 0);
        }

        /** 429 with {@code Retry-After: seconds}. */
        public static ChatFault tooMany(int seconds) {
            return new ChatFault(429, String.valueOf(seconds), false, 0);
        }

        /** The head (200, event stream) and then nothing, until the client gives up. */
        public static ChatFault stall() {
            return new ChatFault(200, null, true, 0);
        }

        /** The first {@code words} words, then the connection closed without a chunk's end. */
        public static ChatFault breakAfter(int words) {
            return new ChatFault(200, null, false, words);
        }

        String describe() {
            return stalls ? "stall" : breakAfterWords > 0 ? "break after " + breakAfterWords + " words"
                    : status + (retryAfter == null ? "" : " Retry-After " + retryAfter);
        }
    }

    /**
     * One call's faults (or every call's, under {@link #ANY}): counts are the plan's, so "the second chat request" is
     * the call's second (retries counted). Everything off by default.
     */
    public static final class Faults {
        /** Deepgram (v1/listen, v2/listen): the next this many upgrades refused with {@link #sttStatus}. */
        public final AtomicInteger sttRefusals = new AtomicInteger();
        public volatile int sttStatus = 503;
        public volatile String sttRetryAfter;
        /** Every Deepgram upgrade refused: down for good. */
        public volatile boolean sttDown;
        /**
         * Deepgram's socket dropped (no close frame) once, at the {@link #sttDropAtVoicedFrame}-th voiced frame it hears
         * after the call's {@code sttDropAfterFinals}-th final transcript: in the middle of the caller's next line.
         * -1: never.
         */
        public volatile int sttDropAfterFinals = -1;
        public volatile int sttDropAtVoicedFrame = 20;
        /** Deepgram's socket dropped instead of answering the call's this-th Finalize; -1: never. */
        public volatile int sttDropAtFinalize = -1;
        /** After its drop Deepgram is down for good. */
        public volatile boolean sttDownAfterDrop;
        /** After its drop this many of Deepgram's next upgrades are refused (with {@link #sttStatus}). */
        public volatile int sttRefusalsAfterDrop;

        /** The call's streamed chat requests (1 the first, every try counted) that fail, and how. */
        public final Map<Integer, ChatFault> chat = new ConcurrentHashMap<>();
        /** From the call's this-th chat request on, every one refused with 503 (a model down for good); 0: never. */
        public volatile int chatDownFrom;

        /** ElevenLabs: the next this many upgrades refused with {@link #ttsStatus}. */
        public final AtomicInteger ttsRefusals = new AtomicInteger();
        public volatile int ttsStatus = 503;
        /** Every ElevenLabs upgrade refused: down for good. */
        public volatile boolean ttsDown;
        /**
         * ElevenLabs' socket dropped (no close frame) once, right after the first audio message of the call's this-th
         * sentence (flushed context, those spoken again after a drop counted too): mid-answer. -1: never.
         */
        public volatile int ttsDropAtSentence = -1;
        /** After its drop ElevenLabs is down for good. */
        public volatile boolean ttsDownAfterDrop;
        /** After its drop this many of ElevenLabs' next upgrades are refused (with {@link #ttsStatus}). */
        public volatile int ttsRefusalsAfterDrop;

        /** Aura: the call's sentence requests (1 the first, every try counted) refused, and with which status. */
        public final Map<Integer, Integer> speak = new ConcurrentHashMap<>();

        final AtomicInteger finals = new AtomicInteger();
        final AtomicInteger finalizes = new AtomicInteger();
        final AtomicInteger chats = new AtomicInteger();
        final AtomicInteger sentences = new AtomicInteger();
        final AtomicInteger speakRequests = new AtomicInteger();
        volatile boolean sttDropped;
        volatile boolean ttsDropped;
        /** A reply whose stream broke: the next request gets it (the rest of it, when it continues). */
        volatile Reply broken;
    }

    /** The plan for every call (created on first use). */
    public static Faults faults() {
        return FAULTS.computeIfAbsent(ANY, k -> new Faults());
    }

    /** The plan of a credential: its own, or every call's, or none. */
    private static Faults faultsOf(String credential) {
        Faults own = credential == null ? null : FAULTS.get(credential);
        return own != null ? own : FAULTS.getOrDefault(ANY, NO_FAULTS);
    }

    private static final Faults NO_FAULTS = new Faults();

    /** Characters the voice behind {@code credential} sent whole sentences of audio for. */
    public static int spokenCharacters(String credential) {
        return SPOKEN.getOrDefault(credential, Map.of()).values().stream().mapToInt(Integer::intValue).sum();
    }

    private static void injected(String credential, String provider, String fault) {
        INJECTED.add(new Injected(credential, provider, fault, System.currentTimeMillis()));
    }

    private Vertx vertx;
    /**
     * How late each of the fakes' designed delays fired, in ms past its time: this process's own lag (its event loops
     * and the box's other work), which the benchmark's voice-to-voice figures include.
     */
    public final Queue<Long> late = new ConcurrentLinkedQueue<>();
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
        STT_OPENED_AT.clear();
        CHAT_REQUESTS.clear();
        CLASSIFIER_REQUESTS.clear();
        VERDICTS.clear();
        CHAT_CANCELLED.set(0);
        TTS_QUERIES.clear();
        TTS_TEXTS.clear();
        TTS_MAX_CONTEXTS.set(0);
        FALLBACK_CHAT_REQUESTS.clear();
        REFUSED.clear();
        FAULTS.clear();
        INJECTED.clear();
        SPOKEN.clear();
        TOKENS_SENT.clear();
        STT_BYTES.clear();
        hearing = null;
        TIMELINES.clear();
        CHATS.clear();
        STT_EVENTS.clear();
        replyToLastLine = false;
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
        return Map.ofEntries(Map.entry("voiceagent.models.openai-base-url", base + "/v1"),
                Map.entry("voiceagent.models.elevenlabs-base-url", base),
                Map.entry("voiceagent.models.deepgram-base-url", base),
                Map.entry("voiceagent.models.cartesia-base-url", base),
                Map.entry("voiceagent.models.assemblyai-base-url", base),
                Map.entry("voiceagent.models.rime-base-url", base),
                Map.entry("voiceagent.models.grok-realtime-base-url", base + "/grok/v1"));
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }

    /**
     * Refuses the upgrade when the plan says so (the next N, or all while down): the status, its Retry-After, a
     * Deepgram-like error body. True when refused.
     */
    private static boolean refused(HttpServerRequest request, String provider, String credential, AtomicInteger next,
            boolean down, int status, String retryAfter) {
        if (!down && next.getAndUpdate(n -> Math.max(0, n - 1)) <= 0) {
            return false;
        }
        String fault = provider + " " + status;
        REFUSED.add(fault);
        injected(credential, "deepgram".equals(provider) ? "stt" : "tts", (down ? "down: " : "refused: ") + fault);
        var response = request.response().setStatusCode(status).putHeader("Content-Type", "application/json");
        if (retryAfter != null) {
            response.putHeader("Retry-After", retryAfter);
        }
        response.end(new JsonObject().put("err_code", status == 429 ? "TOO_MANY_REQUESTS" : "SERVICE_UNAVAILABLE")
                .put("err_msg", status == 429 ? "Too many requests" : "Service unavailable, try again").encode());
        return true;
    }

    /**
     * The connection under a request or socket closed at the transport, below the WebSocket and HTTP handlers (which
     * would say goodbye first): no close frame, no chunk's end, as a network or a provider's crash drops it.
     */
    private static void drop(HttpConnection connection) {
        Channel channel = ((ConnectionBase) connection).channel();
        ChannelHandlerContext first = channel.pipeline().firstContext();
        if (first != null) {
            first.close();
        } else {
            channel.close();
        }
    }

    private static String credential(String header) {
        if (header == null) {
            return null;
        }
        return header.startsWith("Token ") ? header.substring(6) : header.startsWith("Bearer ") ? header.substring(7)
                : header;
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
            Faults faults = faultsOf(credential(auth));
            if (refused(request, "deepgram", credential(auth), faults.sttRefusals, faults.sttDown, faults.sttStatus,
                    faults.sttRetryAfter)) {
                return;
            }
            String query = request.query();
            request.toWebSocket().onSuccess(ws -> {
                STT_QUERIES.add("v2?" + query);
                flux(ws, frameBytes(query));
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
            String key = credential(request.getHeader("Authorization"));
            request.toWebSocket().onSuccess(ws -> {
                if (query == null || !query.contains("intent=transcription")) {
                    FakeRealtimeModel.serve(vertx, ws, query, FakeRealtimeModel.Dialect.OPENAI); // speech-to-speech
                    return;
                }
                STT_QUERIES.add("realtime?" + query);
                openAiTranscription(ws, key);
            });
            return;
        }
        if (path.equals("/ws3")) { // Rime's JSON WebSocket
            String auth = request.getHeader("Authorization");
            if (auth == null || !auth.startsWith("Bearer ")) {
                request.response().setStatusCode(401).end("{\"message\":\"Unauthorized\"}");
                return;
            }
            String query = request.query();
            request.toWebSocket().onSuccess(ws -> {
                TTS_QUERIES.add("rime?" + query);
                rime(ws, credential(auth), query);
            });
            return;
        }
        if (path.equals("/v3/ws")) { // AssemblyAI's streaming v3: the key as it is in Authorization
            String auth = request.getHeader("Authorization");
            if (auth == null || auth.isBlank() || auth.startsWith("Bearer ") || auth.startsWith("Token ")) {
                request.response().setStatusCode(401).end();
                return;
            }
            String query = request.query();
            request.toWebSocket().onSuccess(ws -> {
                STT_QUERIES.add("v3?" + query);
                STT_OPENED_AT.add(System.currentTimeMillis());
                assemblyAi(ws, auth, query);
            });
            return;
        }
        if (path.equals("/openai/v1/realtime") || path.equals("/grok/v1/realtime")) { // Azure OpenAI's, Grok's
            boolean azure = path.startsWith("/openai");
            String auth = azure ? request.getHeader("api-key") : request.getHeader("Authorization");
            if (auth == null || !azure && !auth.startsWith("Bearer ")) {
                request.response().setStatusCode(401).end("{\"error\":{\"message\":\"Incorrect API key\"}}");
                return;
            }
            String query = request.query();
            request.toWebSocket().onSuccess(ws -> FakeRealtimeModel.serve(vertx, ws, query,
                    azure ? FakeRealtimeModel.Dialect.AZURE : FakeRealtimeModel.Dialect.GROK));
            return;
        }
        if (path.equals("/tts/websocket")) {
            if (request.getHeader("X-API-Key") == null || request.getHeader("Cartesia-Version") == null) {
                request.response().setStatusCode(401).end();
                return;
            }
            String key = request.getHeader("X-API-Key");
            request.toWebSocket().onSuccess(ws -> cartesia(ws, key));
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
        String key = credential(auth);
        Faults faults = faultsOf(key);
        if (deepgram ? refused(request, "deepgram", key, faults.sttRefusals, faults.sttDown, faults.sttStatus,
                faults.sttRetryAfter) : refused(request, "elevenlabs", key, faults.ttsRefusals, faults.ttsDown,
                faults.ttsStatus, null)) {
            return;
        }
        String query = request.query();
        HttpConnection connection = request.connection();
        request.toWebSocket().onSuccess(ws -> {
            if (deepgram) {
                STT_QUERIES.add(query);
                STT_OPENED_AT.add(System.currentTimeMillis());
                CallerTimeline timeline = key == null ? null : TIMELINES.get(key);
                if (timeline != null) {
                    scripted(ws, key, timeline, query);
                } else {
                    deepgram(ws, key, faults, connection, frameBytes(query));
                }
            } else {
                TTS_QUERIES.add(query);
                elevenlabs(ws, query != null && query.contains("output_format=pcm_16000") ? 32 : 8, key, faults,
                        connection);
            }
        });
    }

    // ---- Deepgram ----

    /**
     * Deepgram's live transcription. Each Finalize settles the next scripted line, or with {@link #hearing} the lines
     * heard in the audio since the last final (an empty final when none). Faults: the socket dropped mid-line after a
     * final, or instead of a Finalize's answer.
     */
    private void deepgram(ServerWebSocket ws, String key, Faults faults, HttpConnection connection, int frameBytes) {
        Deque<String> own = new ConcurrentLinkedDeque<>(callerScript);
        HeardLines lines = hearing;
        HeardLines.Ear ear = lines == null ? null : lines.ear();
        int[] voicedAfterFinal = {0};
        int[] framesSinceFinalize = {0};
        ws.binaryMessageHandler(message -> { // a message holds one or more of the call's 20 ms frames
            STT_BYTES.computeIfAbsent(String.valueOf(key), k -> new AtomicLong()).addAndGet(message.length());
            byte[] all = message.getBytes();
            if (ear != null) {
                ear.audio(all);
            }
            for (int at = 0; at < all.length && !faults.sttDropped; at += frameBytes) {
                byte[] bytes = Arrays.copyOfRange(all, at, Math.min(all.length, at + frameBytes));
                STT_AUDIO_FRAMES.incrementAndGet();
                framesSinceFinalize[0]++;
                if (faults.sttDropAfterFinals >= 0 && faults.finals.get() >= faults.sttDropAfterFinals
                        && Loudness.dbfs(G711.decode(bytes)) > SimulatedCaller.VOICED_DBFS
                        && ++voicedAfterFinal[0] >= faults.sttDropAtVoicedFrame) {
                    faults.sttDropped = true;
                    faults.sttDown |= faults.sttDownAfterDrop;
                    faults.sttRefusals.addAndGet(faults.sttRefusalsAfterDrop);
                    injected(key, "stt", "socket dropped mid-line" + (faults.sttDownAfterDrop ? ", then down" : ""));
                    drop(connection);
                }
            }
        });
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
                    if (faults.finalizes.incrementAndGet() == faults.sttDropAtFinalize && !faults.sttDropped) {
                        faults.sttDropped = true;
                        faults.sttDown |= faults.sttDownAfterDrop;
                        faults.sttRefusals.addAndGet(faults.sttRefusalsAfterDrop);
                        injected(key, "stt", "socket dropped at a Finalize" + (faults.sttDownAfterDrop ? ", then down"
                                : ""));
                        drop(connection);
                        return;
                    }
                    String next = ear != null ? ear.transcript()
                            : callerScript.isEmpty() ? CALLER_LINES.pollFirst() : own.pollFirst();
                    // no line left to settle, but audio came since the last Finalize: Deepgram answers it all the
                    // same, with what it heard (here nothing new: the script's line went whole to an earlier one)
                    String line = next == null && framesSinceFinalize[0] >= AUDIO_BUFFERED_FRAMES ? "" : next;
                    framesSinceFinalize[0] = 0;
                    if (line != null) {
                        delayed(sttDelayMs, t -> {
                            if (!ws.isClosed()) {
                                if (!line.isEmpty()) {
                                    faults.finals.incrementAndGet();
                                    voicedAfterFinal[0] = 0;
                                }
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

    /**
     * Audio since the last Finalize that Deepgram answers a Finalize for even with no words (250 ms of frames): it
     * answers "typically when there is a noticeable amount of audio buffered", and a Finalize with none may go unanswered.
     */
    static final int AUDIO_BUFFERED_FRAMES = 12;

    /** Interim results every this many frames of a segment (300 ms), the first that long after its onset. */
    static final int INTERIM_FRAMES = 15;

    /**
     * Deepgram v1 in script mode: the position of the audio received (bytes over the frame size of the query's
     * encoding and sample rate: 20 ms frames from the stream's first) against the call's {@link CallerTimeline}. While
     * a segment lasts, an interim {@code Results} (is_final false) every {@link #INTERIM_FRAMES} frames of it with the
     * words so far (the not yet finalised segments before it first); on each Finalize, after {@link #sttDelayMs}, a
     * final (is_final and from_finalize true) with the segments that ended by the Finalize and were not yet finalised,
     * or an empty one (as Deepgram answers a Finalize with nothing to settle); speech_final when the caller had been
     * silent for the query's endpointing (300 ms) by then. Noise, echo and babble are no segment: no words.
     */
    private void scripted(ServerWebSocket ws, String key, CallerTimeline timeline, String query) {
        int frameBytes = frameBytes(query);
        long[] received = {0};
        Set<Integer> finalised = new HashSet<>();
        Map<Integer, Integer> interims = new HashMap<>();
        ws.binaryMessageHandler(frame -> { // one or more of the call's 20 ms frames
            STT_AUDIO_FRAMES.addAndGet(frame.length() / frameBytes);
            STT_BYTES.computeIfAbsent(String.valueOf(key), k -> new AtomicLong()).addAndGet(frame.length());
            received[0] += frame.length();
            long at = received[0] / frameBytes;
            List<CallerTimeline.Segment> segments = timeline.segments();
            for (int i = 0; i < segments.size(); i++) {
                CallerTimeline.Segment s = segments.get(i);
                if (finalised.contains(i) || at < s.startFrame() || at >= s.endFrame()) {
                    continue;
                }
                int due = (int) ((at - s.startFrame()) / INTERIM_FRAMES);
                if (due > interims.getOrDefault(i, 0)) {
                    interims.put(i, due);
                    String[] words = s.text().split(" ");
                    int so = (int) Math.max(1, Math.min(words.length, Math.round(words.length
                            * (double) (at - s.startFrame()) / (s.endFrame() - s.startFrame()))));
                    StringBuilder text = new StringBuilder();
                    for (int j = 0; j < i; j++) {
                        if (!finalised.contains(j) && segments.get(j).endFrame() <= at) {
                            text.append(segments.get(j).text()).append(' ');
                        }
                    }
                    text.append(String.join(" ", Arrays.copyOf(words, so)));
                    ws.writeTextMessage(results(text.toString(), false, false, false));
                    sttEvent(key, "interim '" + text + "'");
                }
            }
        });
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
                    long at = received[0] / frameBytes;
                    List<String> said = new ArrayList<>();
                    long lastEnd = -1;
                    List<CallerTimeline.Segment> segments = timeline.segments();
                    for (int i = 0; i < segments.size(); i++) {
                        CallerTimeline.Segment s = segments.get(i);
                        if (!finalised.contains(i) && s.endFrame() <= at) {
                            finalised.add(i);
                            said.add(s.text());
                            lastEnd = Math.max(lastEnd, s.endFrame());
                        }
                    }
                    boolean speechFinal = !said.isEmpty() && at - lastEnd >= 300 / 20;
                    String line = String.join(" ", said);
                    sttEvent(key, "Finalize at frame " + at);
                    delayed(sttDelayMs, t -> {
                        if (!ws.isClosed()) {
                            ws.writeTextMessage(results(line, true, speechFinal, true));
                            sttEvent(key, "final '" + line + "'");
                        }
                    });
                }
                case "CloseStream" -> vertx.setTimer(20, t -> ws.close());
                default -> VIOLATIONS.add("deepgram: unknown control " + type);
            }
        });
    }

    private static void sttEvent(String key, String event) {
        STT_EVENTS.computeIfAbsent(String.valueOf(key), k -> new CopyOnWriteArrayList<>())
                .add(System.currentTimeMillis() + " " + event);
    }

    /** A 20 ms frame's bytes in the query's encoding (mulaw: 1 a sample, linear16: 2) and sample rate (8000). */
    static int frameBytes(String query) {
        String q = query == null ? "" : query;
        int rate = 8000;
        Matcher m = Pattern.compile("sample_rate=(\\d+)").matcher(q);
        if (m.find()) {
            rate = Integer.parseInt(m.group(1));
        }
        return rate / 50 * (q.contains("encoding=linear16") ? 2 : 1);
    }

    private static String results(String transcript, boolean isFinal, boolean speechFinal, boolean fromFinalize) {
        JsonObject results = new JsonObject().put("type", "Results").put("is_final", isFinal)
                .put("speech_final", speechFinal).put("channel", new JsonObject().put("alternatives",
                        new JsonArray().add(new JsonObject().put("transcript", transcript).put("confidence",
                                transcript.isEmpty() ? 0.0 : 0.97))));
        if (fromFinalize) {
            results.put("from_finalize", true);
        }
        return results.encode();
    }

    // ---- AssemblyAI ----

    /**
     * AssemblyAI's streaming v3 ({@code /v3/ws?speech_model=...&encoding=pcm_mulaw|pcm_s16le&sample_rate=...}): Begin
     * on open; audio only as binary messages of 50 to 1000 ms (anything else is a violation, as AssemblyAI closes the
     * session with 3007); with the call's {@link CallerTimeline} (a benchmark's) a partial Turn (end_of_turn false)
     * every {@link #INTERIM_FRAMES} frames of a segment; {@code ForceEndpoint} answered after {@link #sttDelayMs} by the
     * formatted end of turn (turn_order, end_of_turn, turn_is_formatted, words with their end in ms) with the segments
     * ended by then, or without a timeline the next scripted caller line (or the lines heard, with {@link #hearing});
     * {@code Terminate} answered with Termination and a close. Universal-3 Pro's formatted turns only (format_turns is
     * not asked for it).
     */
    private void assemblyAi(ServerWebSocket ws, String key, String query) {
        int frameBytes = frameBytes(query == null ? null : query.replace("pcm_s16le", "linear16"));
        if (query == null || !query.contains("speech_model=") || !(query.contains("encoding=pcm_mulaw")
                || query.contains("encoding=pcm_s16le"))) {
            VIOLATIONS.add("assemblyai: a session without its model or encoding: " + query);
        }
        CallerTimeline timeline = TIMELINES.get(key);
        Deque<String> own = new ConcurrentLinkedDeque<>(callerScript);
        HeardLines lines = hearing;
        HeardLines.Ear ear = lines == null ? null : lines.ear();
        long[] received = {0};
        int[] turn = {0};
        Set<Integer> finalised = new HashSet<>();
        Map<Integer, Integer> partials = new HashMap<>();
        ws.writeTextMessage(new JsonObject().put("type", "Begin").put("id", UUID.randomUUID().toString())
                .put("expires_at", System.currentTimeMillis() / 1_000 + 3_600).encode());
        ws.binaryMessageHandler(message -> {
            long ms = message.length() * 20L / frameBytes;
            if (ms < 50 || ms > 1_000) {
                VIOLATIONS.add("assemblyai: an audio message of " + ms + " ms (50 to 1000 ms are taken)");
            }
            STT_AUDIO_FRAMES.addAndGet((int) (ms / 20));
            STT_BYTES.computeIfAbsent(key, k -> new AtomicLong()).addAndGet(message.length());
            if (ear != null) {
                ear.audio(message.getBytes());
            }
            received[0] += message.length();
            if (timeline == null) {
                return;
            }
            long at = received[0] / frameBytes;
            List<CallerTimeline.Segment> segments = timeline.segments();
            for (int i = 0; i < segments.size(); i++) {
                CallerTimeline.Segment seg = segments.get(i);
                if (finalised.contains(i) || at < seg.startFrame() || at >= seg.endFrame()) {
                    continue;
                }
                int due = (int) ((at - seg.startFrame()) / INTERIM_FRAMES);
                if (due > partials.getOrDefault(i, 0)) {
                    partials.put(i, due);
                    String[] words = seg.text().split(" ");
                    int so = (int) Math.max(1, Math.min(words.length, Math.round(words.length
                            * (double) (at - seg.startFrame()) / (seg.endFrame() - seg.startFrame()))));
                    String partial = String.join(" ", Arrays.copyOf(words, so));
                    ws.writeTextMessage(new JsonObject().put("type", "Turn").put("turn_order", turn[0])
                            .put("end_of_turn", false).put("turn_is_formatted", false).put("transcript", partial)
                            .put("words", new JsonArray()).encode());
                    sttEvent(key, "partial '" + partial + "'");
                }
            }
        });
        ws.textMessageHandler(text -> {
            String type = new JsonObject(text).getString("type", "");
            STT_CONTROL.add(type);
            switch (type) {
                case "ForceEndpoint" -> {
                    long at = received[0] / frameBytes;
                    String line;
                    long endMs = at * 20;
                    if (timeline != null) {
                        List<String> said = new ArrayList<>();
                        List<CallerTimeline.Segment> segments = timeline.segments();
                        for (int i = 0; i < segments.size(); i++) {
                            if (!finalised.contains(i) && segments.get(i).endFrame() <= at) {
                                finalised.add(i);
                                said.add(segments.get(i).text());
                                endMs = segments.get(i).endFrame() * 20;
                            }
                        }
                        line = String.join(" ", said);
                    } else {
                        String next = ear != null ? ear.transcript()
                                : callerScript.isEmpty() ? CALLER_LINES.pollFirst() : own.pollFirst();
                        line = next == null ? "" : next;
                    }
                    int order = turn[0]++;
                    long end = endMs;
                    sttEvent(key, "ForceEndpoint at frame " + at);
                    delayed(sttDelayMs, t -> {
                        if (ws.isClosed()) {
                            return;
                        }
                        JsonArray words = new JsonArray();
                        if (!line.isEmpty()) {
                            words.add(new JsonObject().put("text", line).put("start", Math.max(0, end - 500))
                                    .put("end", end).put("confidence", 0.97).put("word_is_final", true));
                        }
                        ws.writeTextMessage(new JsonObject().put("type", "Turn").put("turn_order", order)
                                .put("end_of_turn", true).put("turn_is_formatted", true).put("transcript", line)
                                .put("end_of_turn_confidence", 1.0).put("words", words).encode());
                        sttEvent(key, "final '" + line + "'");
                    });
                }
                case "Terminate" -> {
                    ws.writeTextMessage(new JsonObject().put("type", "Termination")
                            .put("audio_duration_seconds", received[0] / frameBytes / 50).encode());
                    vertx.setTimer(20, t -> ws.close());
                }
                default -> VIOLATIONS.add("assemblyai: unknown message " + type);
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
    private void flux(ServerWebSocket ws, int frameBytes) {
        Deque<String> own = new ConcurrentLinkedDeque<>(callerScript);
        int[] turn = {0};
        ws.writeTextMessage(new JsonObject().put("type", "Connected").put("request_id", "flux-1").encode());
        ws.binaryMessageHandler(message -> STT_AUDIO_FRAMES.addAndGet(message.length() / frameBytes));
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
                    delayed(sttDelayMs, t -> {
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
    private void elevenlabs(ServerWebSocket ws, int bytesPerMs, String key, Faults faults, HttpConnection connection) {
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
                boolean dropHere = faults.sentences.incrementAndGet() == faults.ttsDropAtSentence && !faults.ttsDropped;
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
                delayed(ttsDelayMs, t -> {
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
                        if (dropHere) { // mid-sentence: its first audio went out, the rest never will on this socket
                            faults.ttsDropped = true;
                            faults.ttsDown |= faults.ttsDownAfterDrop;
                            faults.ttsRefusals.addAndGet(faults.ttsRefusalsAfterDrop);
                            injected(key, "tts", "socket dropped mid-sentence" + (faults.ttsDownAfterDrop
                                    ? ", then down" : ""));
                            drop(connection);
                            return;
                        }
                    }
                    context.generated = true;
                    if (!ws.isClosed()) {
                        spoken(key, id, said);
                    }
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
    private void openAiTranscription(ServerWebSocket ws, String key) {
        HeardLines lines = hearing;
        HeardLines.Ear ear = lines == null ? null : lines.ear();
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
                    byte[] audio = Base64.getDecoder().decode(m.getString("audio", ""));
                    int bytes = audio.length;
                    appended[0] += bytes;
                    STT_AUDIO_FRAMES.addAndGet(bytes / 160);
                    STT_BYTES.computeIfAbsent(String.valueOf(key), k -> new AtomicLong()).addAndGet(bytes);
                    if (ear != null) {
                        ear.audio(audio);
                    }
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
                    String line = ear != null ? ear.transcript() : CALLER_LINES.pollFirst();
                    delayed(sttDelayMs, t -> {
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
    private void cartesia(ServerWebSocket ws, String key) {
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
            delayed(ttsDelayMs, t -> {
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
                if (!ws.isClosed() && !cancelled.contains(id)) {
                    spoken(key, id, said);
                }
                if (!ws.isClosed()) {
                    ws.writeTextMessage(new JsonObject().put("type", "done").put("context_id", id).encode());
                }
            });
        });
    }

    // ---- Rime ----

    /**
     * Rime's JSON WebSocket ({@code /ws3?speaker=...&modelId=...&audioFormat=mulaw|pcm&samplingRate=...&segment=never}):
     * with segment=never nothing is spoken until a {@code flush}; the text since the last flush is the context's
     * sentence: after {@link #ttsDelayMs} its audio (60 ms a word, in the query's format) as {@code chunk} messages of
     * 100 ms, its words as one {@code timestamps} message (seconds from the sentence's start), then {@code done}. Rime
     * keeps one context at a time: text for another before the last one's done is a violation, unless a {@code clear}
     * dropped it (its remaining chunks are not sent).
     */
    private void rime(ServerWebSocket ws, String key, String query) {
        boolean mulaw = query != null && query.contains("audioFormat=mulaw") && query.contains("samplingRate=8000");
        boolean pcm = query != null && query.contains("audioFormat=pcm") && query.contains("samplingRate=16000");
        if (!mulaw && !pcm || !query.contains("segment=never") || !query.contains("speaker=")
                || !query.contains("modelId=")) {
            VIOLATIONS.add("rime: a session the call should not ask for: " + query);
        }
        int bytesPerMs = mulaw ? 8 : 32;
        StringBuilder text = new StringBuilder();
        String[] context = {null};
        boolean[] busy = {false};
        Set<String> cleared = ConcurrentHashMap.newKeySet();
        ws.binaryMessageHandler(b -> VIOLATIONS.add("rime: a binary frame"));
        ws.textMessageHandler(message -> {
            JsonObject m = new JsonObject(message);
            String operation = m.getString("operation");
            if ("clear".equals(operation)) {
                if (context[0] != null) {
                    cleared.add(context[0]);
                }
                busy[0] = false;
                text.setLength(0);
                return;
            }
            if (!"flush".equals(operation)) {
                String id = m.getString("contextId");
                if (id == null || m.getString("text") == null) {
                    VIOLATIONS.add("rime: a message without text or contextId: " + shorten(message));
                    return;
                }
                if (busy[0] && !id.equals(context[0])) {
                    VIOLATIONS.add("rime: text for " + id + " while " + context[0] + " is being spoken");
                }
                context[0] = id;
                text.append(m.getString("text"));
                return;
            }
            String id = context[0];
            String said = text.toString().strip();
            text.setLength(0);
            busy[0] = true;
            TTS_TEXTS.add(said);
            String[] words = said.split("\\s+");
            byte[] audio = new byte[60 * Math.max(1, words.length) * bytesPerMs];
            for (int i = 0; i < audio.length; i++) {
                audio[i] = mulaw ? (byte) (i % 2 == 0 ? 0x1F : 0x9F) : (byte) (i % 4 < 2 ? 0x00 : 0x10);
            }
            JsonArray starts = new JsonArray();
            JsonArray ends = new JsonArray();
            for (int w = 0; w < words.length; w++) {
                starts.add(w * 0.06);
                ends.add(w * 0.06 + 0.05);
            }
            delayed(ttsDelayMs, t -> {
                for (int at = 0; at < audio.length && !ws.isClosed() && !cleared.contains(id); at += 100 * bytesPerMs) {
                    byte[] chunk = Arrays.copyOfRange(audio, at, Math.min(audio.length, at + 100 * bytesPerMs));
                    ws.writeTextMessage(new JsonObject().put("type", "chunk").put("contextId", id)
                            .put("data", Base64.getEncoder().encodeToString(chunk)).encode());
                    if (at == 0) {
                        ws.writeTextMessage(new JsonObject().put("type", "timestamps").put("contextId", id)
                                .put("word_timestamps", new JsonObject().put("words", new JsonArray(List.of(
                                        (Object[]) words))).put("start", starts).put("end", ends)).encode());
                    }
                }
                if (!ws.isClosed() && !cleared.contains(id)) {
                    spoken(key, id, said);
                    busy[0] = false;
                    ws.writeTextMessage(new JsonObject().put("type", "done").put("contextId", id).encode());
                }
            });
        });
    }

    /** A sentence's audio went out whole: its characters count once for the voice behind {@code key}. */
    private static void spoken(String key, String sentence, String text) {
        SPOKEN.computeIfAbsent(String.valueOf(key), k -> new ConcurrentHashMap<>()).putIfAbsent(sentence,
                text.length());
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
        if (request.path().equals("/v1/speak") && "POST".equals(request.method().name())) {
            aura(request);
            return;
        }
        boolean fallback = request.path().equals("/fallback/v1/chat/completions");
        if (!fallback && !request.path().equals("/v1/chat/completions") || !"POST".equals(request.method().name())) {
            request.response().setStatusCode(404).end();
            return;
        }
        String key = credential(request.getHeader("Authorization"));
        HttpConnection connection = request.connection();
        request.body().onSuccess(body -> {
            JsonObject json = body.toJsonObject();
            if (!Boolean.TRUE.equals(json.getBoolean("stream")) && json.encode().contains("voicemail detection")) {
                CLASSIFIER_REQUESTS.add(json); // the voicemail classifier: one answer, not streamed
                String verdict = VERDICTS.isEmpty() ? "CONVERSATION" : VERDICTS.pollFirst();
                delayed(llmDelayMs, t -> request.response().putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("id", "cmpl-vm").put("object", "chat.completion")
                                .put("choices", new JsonArray().add(new JsonObject().put("index", 0)
                                        .put("message", new JsonObject().put("role", "assistant")
                                                .put("content", verdict)).put("finish_reason", "stop")))
                                .put("usage", new JsonObject().put("prompt_tokens", 120).put("completion_tokens", 2)
                                        .put("total_tokens", 122)).encode()));
                return;
            }
            (fallback ? FALLBACK_CHAT_REQUESTS : CHAT_REQUESTS).add(json);
            if (Boolean.TRUE.equals(json.getBoolean("stream"))) {
                CHATS.computeIfAbsent(String.valueOf(key), k -> new CopyOnWriteArrayList<>())
                        .add(new ChatAsked(System.currentTimeMillis(), lastUserText(json)));
            }
            if (!Boolean.TRUE.equals(json.getBoolean("stream"))) {
                VIOLATIONS.add("chat: a voice call's completion that is not streamed");
            }
            Faults faults = faultsOf(key);
            ChatFault fault = null;
            if (!fallback) {
                int n = faults.chats.incrementAndGet();
                fault = faults.chatDownFrom > 0 && n >= faults.chatDownFrom ? ChatFault.refused(503)
                        : faults.chat.remove(n);
            }
            if (fault != null && fault.breakAfterWords() == 0) {
                injected(key, "llm", (faults.chatDownFrom > 0 && fault.status() == 503 ? "down: " : "")
                        + fault.describe());
                if (fault.stalls()) { // the head, then nothing: the client's first-byte limit must give up
                    var response = request.response();
                    response.closeHandler(v -> CHAT_CANCELLED.incrementAndGet());
                    response.setChunked(true).putHeader("Content-Type", "text/event-stream").writeHead();
                    return;
                }
                REFUSED.add("chat " + fault.status());
                var refusal = request.response().setStatusCode(fault.status()).putHeader("Content-Type",
                        "application/json");
                if (fault.retryAfter() != null) {
                    refusal.putHeader("Retry-After", fault.retryAfter());
                }
                refusal.end(new JsonObject().put("error", new JsonObject().put("message", fault.status() == 429
                        ? "Rate limit reached, retry after " + fault.retryAfter() + " s" : "The server had an error")
                        .put("type", fault.status() == 429 ? "rate_limit_error" : "server_error")).encode());
                return;
            }
            Reply reply = next(json, faults);
            if (reply == null) {
                request.response().setStatusCode(500).end("{\"error\":{\"message\":\"no scripted reply\"}}");
                return;
            }
            if (fault != null && reply.text() != null) { // its first words, then the connection breaks
                faults.broken = reply;
                injected(key, "llm", fault.describe());
            }
            stream(request, connection, reply, fault == null ? 0 : fault.breakAfterWords(), key);
        });
    }

    /**
     * The reply a request gets: after a stream that broke, the rest of that reply (to a continuation, which says what
     * was heard as the assistant's words) or the whole of it (the same request asked again); else the next scripted.
     */
    private static Reply next(JsonObject request, Faults faults) {
        Reply broken = faults.broken;
        if (broken != null) {
            faults.broken = null;
            JsonArray messages = request.getJsonArray("messages", new JsonArray());
            JsonObject last = messages.isEmpty() ? new JsonObject() : messages.getJsonObject(messages.size() - 1);
            if ("system".equals(last.getString("role")) && messages.size() > 1
                    && "assistant".equals(messages.getJsonObject(messages.size() - 2).getString("role"))) {
                String said = messages.getJsonObject(messages.size() - 2).getString("content", "");
                if (!broken.text().startsWith(said)) {
                    VIOLATIONS.add("chat: a continuation after words the broken reply did not say: " + said);
                    return broken;
                }
                return new Reply(broken.text().substring(said.length()).strip(), broken.tool(), broken.wordMs(),
                        broken.arguments());
            }
            return broken;
        }
        if (REPLY_FOR.isEmpty()) {
            return REPLIES.pollFirst();
        }
        String said = lastUserText(request);
        Reply reply = REPLY_FOR.get(said);
        if (reply == null && replyToLastLine) {
            reply = REPLY_FOR.entrySet().stream().filter(e -> said.strip().endsWith(e.getKey()))
                    .max(java.util.Comparator.comparingInt(e -> e.getKey().length())).map(Map.Entry::getValue)
                    .orElse(null);
        }
        return reply != null ? reply : Reply.says("Sorry, could you say that again?");
    }

    /**
     * The reply as server-sent events, its first after {@link #llmDelayMs}, then one every {@code wordMs}; with
     * {@code breakAfter} words the connection is closed (no chunk's end, no [DONE]) once that many went out.
     */
    private void stream(HttpServerRequest request, HttpConnection connection, Reply reply, int breakAfter,
            String key) {
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
            boolean usage = i == events.size() - 2;
            boolean breaks = breakAfter > 0 && i == breakAfter;
            delayed(llmDelayMs + (long) i * reply.wordMs(), t -> {
                if (ended[0] || request.connection() == null || response.closed()) {
                    return;
                }
                if (breaks) { // the provider's connection goes down mid-answer
                    ended[0] = true;
                    drop(connection);
                    return;
                }
                response.write("data: " + event + "\n\n");
                if (usage) {
                    TOKENS_SENT.computeIfAbsent(String.valueOf(key), k -> new AtomicLong()).addAndGet(60);
                }
                if (last) {
                    ended[0] = true;
                    response.end();
                }
            });
        }
    }

    // ---- Deepgram Aura ----

    /**
     * One sentence by {@code POST /v1/speak}: the query's model, encoding mulaw, sample_rate 8000 and container none
     * as a phone call asks, a JSON body {"text"}; its raw μ-law in 100 ms chunks after {@link #ttsDelayMs}. A request
     * the plan refuses is answered with its status and Deepgram's error body, before any audio.
     */
    private void aura(HttpServerRequest request) {
        String auth = request.getHeader("Authorization");
        if (auth == null || !auth.startsWith("Token ")) {
            request.response().setStatusCode(401).end();
            return;
        }
        String key = credential(auth);
        String query = request.query() == null ? "" : request.query();
        request.body().onSuccess(body -> {
            JsonObject json;
            try {
                json = body.toJsonObject();
            } catch (RuntimeException e) {
                VIOLATIONS.add("aura: a body that is not JSON");
                request.response().setStatusCode(400).end();
                return;
            }
            String said = json.getString("text", "");
            if (!query.contains("model=aura") || !query.contains("encoding=mulaw") || !query.contains(
                    "sample_rate=8000") || said.isBlank() || json.size() != 1) {
                VIOLATIONS.add("aura: a request the phone path should not make: " + query + " " + json.encode());
            }
            TTS_QUERIES.add("aura " + query);
            TTS_TEXTS.add(said);
            Faults faults = faultsOf(key);
            Integer status = faults.speak.remove(faults.speakRequests.incrementAndGet());
            if (status != null) {
                REFUSED.add("aura " + status);
                injected(key, "tts", "refused a sentence: " + status);
                request.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                        .putHeader("dg-request-id", UUID.randomUUID().toString())
                        .end(new JsonObject().put("err_code", "INTERNAL_SERVER_ERROR").put("err_msg",
                                "An internal error occurred").encode());
                return;
            }
            String id = UUID.randomUUID().toString();
            var response = request.response().setChunked(true).putHeader("Content-Type", "audio/mulaw")
                    .putHeader("dg-request-id", id).putHeader("dg-char-count", String.valueOf(said.length()));
            byte[] audio = new byte[60 * Math.max(1, said.split("\\s+").length) * 8];
            for (int i = 0; i < audio.length; i++) {
                audio[i] = (byte) (i % 2 == 0 ? 0x1F : 0x9F);
            }
            delayed(ttsDelayMs, t -> {
                for (int at = 0; at < audio.length && !response.closed(); at += 800) {
                    response.write(Buffer.buffer(Arrays.copyOfRange(audio, at, Math.min(audio.length, at + 800))));
                }
                if (!response.closed()) {
                    spoken(key, id, said);
                    response.end();
                }
            });
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

    /** A designed delay: {@code handler} after {@code ms}, and how late it fired kept in {@link #late}. */
    private long delayed(long ms, Handler<Long> handler) {
        long due = System.nanoTime() + ms * 1_000_000;
        return vertx.setTimer(ms, t -> {
            late.add(Math.max(0, (System.nanoTime() - due) / 1_000_000));
            handler.handle(t);
        });
    }
}
