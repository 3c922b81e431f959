package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.ChatCompletions;
import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.ToolCall;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * One call on Gemini Live, Google AI's ({@code BidiGenerateContent} of {@code v1beta.GenerativeService}) or Vertex AI's
 * ({@code v1.LlmBidiService}): the same protocol, spoken as the Live API reference (ai.google.dev/api/live) and
 * pipecat's {@code services/google/gemini_live/llm.py} speak it.
 *
 * <p><b>A connection.</b> The {@code setup} message first: the model, {@code AUDIO} responses in the configured voice
 * and language (speechConfig), the temperature, the node's instructions (systemInstruction) and functions
 * (functionDeclarations with their JSON Schema as {@code parametersJsonSchema}), the caller's and the model's speech
 * transcribed (input/outputAudioTranscription), Gemini's own voice activity detection deciding turns, a node that does
 * not allow interruptions as {@code activityHandling NO_INTERRUPTION}, a sliding context window (an audio session is
 * otherwise cut at 15 minutes) and session resumption (the server's {@code sessionResumptionUpdate} handles). Nothing
 * else is sent before {@code setupComplete}: what comes meanwhile is held (the caller's audio, two seconds at most).
 * The caller's audio goes as {@code realtimeInput.audio}, 16 kHz 16-bit PCM ({@code audio/pcm;rate=16000}; the phone's
 * μ-law decoded and resampled from 8 kHz) every 40 ms; the model's audio comes as {@code modelTurn} inline data, 24 kHz
 * PCM, resampled to the call's format.
 *
 * <p><b>The listener.</b> A response is a model turn, its id minted here: it starts at the turn's first content (audio,
 * transcript or function call) and ends at {@code turnComplete} (completed, or cancelled when Gemini said {@code
 * interrupted}: the caller cut in) with the output transcription as its text, the usage Gemini reported with it ({@code
 * usageMetadata}: prompt, response and total tokens) and its function calls. A turn that calls functions ends at the
 * {@code toolCall}: Gemini waits for their results (it calls functions synchronously), which go back as one {@code
 * toolResponse} (id, name, the output as an object, {@code {"value": output}} when it is not one) when the engine asks
 * for the next response; Gemini then goes on in a new turn. The caller's turn is an item minted here: it starts at
 * Gemini's barge-in ({@code interrupted}) or at the first words of its input transcription (speech started), stops when
 * the model starts answering (speech stopped) and is heard, transcribed, once its transcription has settled (half a
 * second after the answer ended; Gemini sends the transcription apart from the answer, in no guaranteed order). A
 * caller whose words get no answer is taken to have stopped after three quiet seconds.
 *
 * <p><b>A node's setup.</b> Gemini cannot change the instructions or the functions of a connection once set up. A new
 * setup (a transition, one undone at a barge-in, values gathered into the node's prompt) opens a new connection, as the
 * reference's Gemini service does at a node transition ({@code api/services/pipecat/realtime/gemini_live.py}: a fresh
 * connection seeded from the call's own context, not a resumption handle, which may not hold the turn that triggered
 * the transition: Gemini reports {@code resumable=false} while it generates or awaits a function's result). This stream
 * keeps that context itself: the caller's turns, what the model said, its function calls and their results as text (the
 * only form Gemini accepts in a seed, per pipecat's Gemini Live adapter), what was said for it (a recorded greeting). A
 * seeded connection sends it as its first {@code clientContent} turns (on Google AI with {@code
 * historyConfig.initialHistoryInClientContent}, the history then ending with {@code turnComplete}, which asks for
 * nothing; on Vertex, which has no history config, as incremental content). The function results of a call Gemini
 * issued on an earlier connection therefore go as text too, never as a {@code toolResponse} the new connection could
 * not match.
 *
 * <p><b>Asking for a response.</b> With function results pending, the {@code toolResponse} (instructions for the
 * response go before it as a user turn that asks for nothing); otherwise a {@code clientContent} user turn carrying the
 * instructions (a greeting: "say exactly ...") with {@code turnComplete}. The node's own instructions, which the
 * session repeats at the head of a response's instructions, are not sent again. A Gemini 3 model also needs a {@code
 * realtimeInput.text} of one space before it runs (pipecat's observation), sent after each of them.
 *
 * <p><b>Truncation.</b> Gemini keeps no audio item to truncate: it stops generating at the barge-in and keeps what it
 * generated. What the caller heard is kept here: the model's words in this stream's context are cut to the share of the
 * audio the caller heard, for the next seeded connection.
 *
 * <p><b>Faults.</b> An upgrade refused with 408, 429 or a 5xx, a time-out (of the upgrade or of {@code setupComplete}),
 * a connection refused or reset, and a connection Gemini closed mid-call are tried again within the {@link
 * RetryBudget}, resuming the session with its last resumable handle (seeded from this stream's context when there is
 * none); a close with 1007 (invalid argument) or 1008 (policy: a refused key, a project denied access) and any other
 * refused upgrade end the stream at once with Gemini's words. A {@code goAway} (the connection's lifetime is ending) is
 * answered by resuming on a new connection as soon as no response is under way. Every method holds the stream's lock;
 * timers are Vert.x timers.
 */
final class GeminiLive implements SpeechToSpeech.Stream {

    private static final System.Logger LOG = System.getLogger(GeminiLive.class.getName());

    /** The caller's audio as Gemini takes it. */
    static final int INPUT_RATE = 16_000;
    static final String INPUT_MIME = "audio/pcm;rate=" + INPUT_RATE;
    /** The model's audio when its MIME type names no rate. */
    static final int OUTPUT_RATE = 24_000;
    /** 40 ms per message: Gemini's voice activity decides turns, so the caller's audio reaches it with little delay. */
    static final int FRAMES_PER_APPEND = 2;
    /** The caller's audio held while no connection is ready: two seconds, the oldest dropped first. */
    static final int HOLD_APPENDS = 50;
    /** How long the caller's transcription may trail the answer before it is taken as heard. */
    static final long TRANSCRIPT_GRACE_MS = 500;
    /** A caller whose words got no answer for this long has stopped speaking. */
    static final long QUIET_MS = 3_000;
    /** Closes Gemini means for good: an invalid argument, a policy violation (the key, the project's access). */
    static final Set<Integer> REFUSALS = Set.of(1007, 1008);

    /**
     * What a connection is set up with besides the node: the model as the setup names it ({@code models/...} or the
     * Vertex resource), the voice, the language code (BCP-47), the temperature (null: Gemini's own), Vertex or not. (A
     * class, not a record: the native build's check takes the adapters' records for JSON bodies.)
     */
    static final class Model {
        final String name;
        final String voice;
        final String language;
        final Double temperature;
        final boolean vertex;

        Model(String name, String voice, String language, Double temperature, boolean vertex) {
            this.name = name;
            this.voice = voice;
            this.language = language;
            this.temperature = temperature;
            this.vertex = vertex;
        }

        /** Gemini 3 models run only after a realtime input (pipecat's "nudge"). */
        boolean gemini3() {
            return name.contains("gemini-3");
        }
    }

    /** A turn of the call's context as this stream keeps it: who said it, and what. */
    static final class Entry {
        final String role;
        String text;

        Entry(String role, String text) {
            this.role = role;
            this.text = text;
        }
    }

    /** A response's spoken item: its words in the context and the bytes of audio it came with (for a truncation). */
    private static final class Spoken {
        final Entry entry;
        long bytes;

        Spoken(Entry entry) {
            this.entry = entry;
        }
    }

    /** A function's result: Gemini's {@code FunctionResponse}, and the text it is in the context. */
    private static final class Answer {
        final JsonObject response;
        final String text;

        Answer(JsonObject response, String text) {
            this.response = response;
            this.text = text;
        }
    }

    private final Supplier<Future<WebSocket>> connect;
    private final Vertx vertx;
    private final RetryBudget budget;
    private final Duration timeout;
    private final AudioFormat format;
    private final Model model;
    private final SpeechToSpeech.Listener listener;
    private final String provider;

    // the call's context, kept across connections
    private SpeechToSpeech.Setup setup;
    private final List<Entry> history = new ArrayList<>();
    private final Map<String, String> callNames = new HashMap<>();
    /** Calls whose id Gemini gave (Vertex gives none: its results are matched by name). */
    private final Set<String> givenIds = new HashSet<>();

    // the connection
    private WebSocket socket;
    private int generation;
    private boolean ready;
    /** This connection's setup asked for the history in its first client content. */
    private boolean historyPhase;
    private long setupTimer = -1;
    private long retryTimer = -1;
    private String handle;
    private boolean resumable;
    private boolean goingAway;
    private int failures;
    private long firstFailure = -1;
    private boolean closed;

    // what waits for a connection that is ready
    private final Deque<String> heldAudio = new ArrayDeque<>();
    private final List<Optional<String>> heldResponds = new ArrayList<>();
    /** Context for a resumed session (a seeded one has it in its seed). */
    private final List<JsonObject> heldContext = new ArrayList<>();
    /** Whether the connection being opened is seeded from the call's context (not resumed with a handle). */
    private boolean seeding;

    // the function calls of this connection
    private final Map<String, String> openCalls = new LinkedHashMap<>();
    /** Results for them, until the engine asks for the next response: Gemini's, and as context text. */
    private final List<Answer> answered = new ArrayList<>();

    // the caller's audio
    private final Resampler inbound;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private int pendingFrames;
    private long bytes;

    // the caller's turn
    private String userItem;
    private final StringBuilder userText = new StringBuilder();
    private Entry userEntry;
    private boolean userStopped;
    private long quietTimer = -1;
    private long heardTimer = -1;
    private int userSeq;

    // the model's response
    private String responseId;
    private final StringBuilder said = new StringBuilder();
    private final List<ToolCall> calls = new ArrayList<>();
    private TokenUsage usage = TokenUsage.ZERO;
    private TokenUsage spareUsage = TokenUsage.ZERO;
    private boolean cancelled;
    private boolean askedDuringResponse;
    private SpeechRequests.Conversion conversion;
    private Entry responseEntry;
    private int responseSeq;
    private final Map<String, Spoken> spoken = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Spoken> eldest) {
            return size() > 8;
        }
    };

    GeminiLive(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, Duration timeout,
            AudioFormat format, Model model, String provider, SpeechToSpeech.Listener listener) {
        this.connect = connect;
        this.vertx = vertx;
        this.budget = budget;
        this.timeout = timeout;
        this.format = format;
        this.model = model;
        this.provider = provider;
        this.listener = listener;
        this.inbound = format.sampleRate() == INPUT_RATE ? null : new Resampler(format.sampleRate(), INPUT_RATE);
    }

    // ---- what a connection is told ----

    /**
     * The {@code setup} message of a connection: {@code handle} resumes a session (null: a new one);
     * {@code initialHistory} asks Gemini to take the first {@code clientContent} as the history (Google AI only).
     */
    static JsonObject setup(Model model, SpeechToSpeech.Setup node, String handle, boolean initialHistory) {
        JsonObject speech = new JsonObject().put("voiceConfig", new JsonObject().put("prebuiltVoiceConfig",
                new JsonObject().put("voiceName", model.voice)));
        if (model.language != null) {
            speech.put("languageCode", model.language);
        }
        JsonObject generation = new JsonObject().put("responseModalities", new JsonArray().add("AUDIO"))
                .put("speechConfig", speech);
        if (model.temperature != null) {
            generation.put("temperature", model.temperature);
        }
        JsonObject setup = new JsonObject().put("model", model.name).put("generationConfig", generation);
        if (node.instructions() != null && !node.instructions().isBlank()) {
            setup.put("systemInstruction", new JsonObject().put("parts", new JsonArray().add(new JsonObject()
                    .put("text", node.instructions()))));
        }
        if (!node.functions().isEmpty()) {
            JsonArray declarations = new JsonArray();
            for (FunctionSpec f : node.functions()) {
                JsonObject declaration = new JsonObject().put("name", f.name())
                        .put("parametersJsonSchema", new JsonObject(f.parameters()));
                if (f.description() != null && !f.description().isBlank()) {
                    declaration.put("description", f.description());
                }
                declarations.add(declaration);
            }
            setup.put("tools", new JsonArray().add(new JsonObject().put("functionDeclarations", declarations)));
        }
        setup.put("realtimeInputConfig", new JsonObject()
                        .put("automaticActivityDetection", new JsonObject().put("disabled", false))
                        .put("activityHandling", node.interruptible() ? "START_OF_ACTIVITY_INTERRUPTS"
                                : "NO_INTERRUPTION"))
                .put("inputAudioTranscription", new JsonObject())
                .put("outputAudioTranscription", new JsonObject())
                .put("contextWindowCompression", new JsonObject().put("slidingWindow", new JsonObject()))
                .put("sessionResumption", handle == null ? new JsonObject() : new JsonObject().put("handle", handle));
        if (initialHistory) {
            setup.put("historyConfig", new JsonObject().put("initialHistoryInClientContent", true));
        }
        return new JsonObject().put("setup", setup);
    }

    /** BCP-47 language codes of Gemini's speech for the catalog's ISO 639-1 ones (pipecat's table); others as given. */
    static String languageCode(String language) {
        if (language == null || language.isBlank()) {
            return null;
        }
        String code = language.strip();
        if (code.contains("-")) {
            return code;
        }
        return switch (code.toLowerCase(Locale.ROOT)) {
            case "ar" -> "ar-XA";
            case "bn" -> "bn-IN";
            case "zh", "cmn" -> "cmn-CN";
            case "de" -> "de-DE";
            case "en" -> "en-US";
            case "es" -> "es-ES";
            case "fr" -> "fr-FR";
            case "gu" -> "gu-IN";
            case "hi" -> "hi-IN";
            case "id" -> "id-ID";
            case "it" -> "it-IT";
            case "ja" -> "ja-JP";
            case "kn" -> "kn-IN";
            case "ko" -> "ko-KR";
            case "ml" -> "ml-IN";
            case "mr" -> "mr-IN";
            case "nl" -> "nl-NL";
            case "pl" -> "pl-PL";
            case "pt" -> "pt-BR";
            case "ru" -> "ru-RU";
            case "ta" -> "ta-IN";
            case "te" -> "te-IN";
            case "th" -> "th-TH";
            case "tr" -> "tr-TR";
            case "vi" -> "vi-VN";
            default -> code;
        };
    }

    /** A function's output as Gemini's {@code FunctionResponse.response} takes it: an object. */
    static JsonObject output(String output) {
        String given = output == null ? "" : output.strip();
        try {
            if (given.startsWith("{")) {
                return new JsonObject(given);
            }
            if (given.startsWith("[")) {
                return new JsonObject().put("value", new JsonArray(given));
            }
        } catch (DecodeException notJson) {
            // a plain text result that merely starts like JSON
        }
        return new JsonObject().put("value", output);
    }

    private static JsonObject turn(String role, String text) {
        return new JsonObject().put("role", role).put("parts", new JsonArray().add(new JsonObject().put("text", text)));
    }

    // ---- connections ----

    /**
     * Opens a connection in place of the current one (whose events are ignored from now on): resuming the session with
     * its last resumable handle when {@code resume}, otherwise a new session seeded from the call's context.
     */
    private void open(boolean resume) {
        WebSocket old = socket;
        socket = null;
        ready = false;
        int gen = ++generation;
        if (old != null) {
            old.close();
        }
        cancelTimer(setupTimer);
        setupTimer = -1;
        goingAway = false;
        if (responseId != null) { // a response the old connection will not finish
            endResponse(cancelled ? "cancelled" : "incomplete");
        }
        String resumeWith = resume && resumable ? handle : null;
        seeding = resumeWith == null;
        if (seeding) {
            heldContext.clear(); // the seed carries the whole context
        } else {
            answered.forEach(a -> heldContext.add(contextMessage("user", a.text)));
        }
        openCalls.clear();
        answered.clear();
        boolean initialHistory = seeding && !history.isEmpty() && !model.vertex;
        JsonObject setupMessage = setup(model, setup, resumeWith, initialHistory);
        Future<WebSocket> opening;
        try {
            opening = connect.get();
        } catch (RuntimeException refused) {
            opening = Future.failedFuture(refused);
        }
        opening.onComplete(result -> attempted(gen, result, setupMessage, initialHistory));
    }

    private synchronized void attempted(int gen, AsyncResult<WebSocket> result, JsonObject setupMessage,
            boolean initialHistory) {
        if (gen != generation || closed) {
            if (result.succeeded()) {
                result.result().close();
            }
            return;
        }
        if (result.failed()) {
            Throwable failure = result.cause();
            // a refused address, or credentials Google's token service refused, are not worth another try
            boolean again = !(failure instanceof GuardedHttp.Refused)
                    && !(failure instanceof SpeechRequests.Said said && !said.again);
            Duration retryAfter = null;
            if (failure instanceof GuardedHttp.SocketRefused refused) {
                again = RetryBudget.transientStatus(refused.status);
                retryAfter = RetryBudget.retryAfter(refused.retryAfter, Instant.now());
            }
            String message = provider + ": " + failure.getMessage();
            if (!again || !retry(retryAfter, message)) {
                giveUp(message);
            }
            return;
        }
        WebSocket ws = result.result();
        socket = ws;
        historyPhase = initialHistory;
        ws.textMessageHandler(text -> received(gen, text));
        ws.binaryMessageHandler(buffer -> received(gen, buffer.toString(StandardCharsets.UTF_8)));
        ws.closeHandler(v -> lost(gen, ws));
        ws.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "gemini live: {0}", e.toString()));
        ws.writeTextMessage(setupMessage.encode());
        setupTimer = vertx.setTimer(Math.max(1, timeout.toMillis()), t -> setupTimedOut(gen));
    }

    private synchronized void setupTimedOut(int gen) {
        if (gen != generation || closed || ready) {
            return;
        }
        setupTimer = -1;
        WebSocket ws = socket;
        socket = null;
        generation++;
        if (ws != null) {
            ws.close();
        }
        String message = provider + ": no setupComplete within " + timeout.toMillis() + " ms";
        if (!retry(null, message)) {
            giveUp(message);
        }
    }

    /** The connection closed without us closing it. */
    private synchronized void lost(int gen, WebSocket ws) {
        if (gen != generation || closed) {
            return;
        }
        socket = null;
        ready = false;
        cancelTimer(setupTimer);
        setupTimer = -1;
        Short code = ws.closeStatusCode();
        String reason = ws.closeReason();
        String message = provider + " closed the session (" + code + (reason == null || reason.isBlank() ? ""
                : " " + reason) + ")";
        if (code != null && REFUSALS.contains((int) code)) {
            giveUp(message);
            return;
        }
        if (goingAway) { // the end Gemini announced
            open(true);
            return;
        }
        if (responseId != null) {
            endResponse(cancelled ? "cancelled" : "incomplete");
        }
        if (firstFailure >= 0 && since(firstFailure).compareTo(budget.budget()) <= 0) {
            if (!retry(null, message)) { // dropped again soon after the last trouble: a try of the same episode
                giveUp(message);
            }
            return;
        }
        LOG.log(System.Logger.Level.INFO, "{0}; resuming on a new connection", message);
        failures = 0;
        firstFailure = System.nanoTime();
        open(true);
    }

    /** Counts a failed try and schedules the next within the budget; false when the budget is spent. */
    private boolean retry(Duration retryAfter, String why) {
        failures++;
        if (firstFailure < 0) {
            firstFailure = System.nanoTime();
        }
        Optional<Duration> wait = budget.next(failures, since(firstFailure), retryAfter,
                ThreadLocalRandom.current().nextDouble());
        if (wait.isEmpty()) {
            return false;
        }
        LOG.log(System.Logger.Level.INFO, "{0}; trying again in {1} ms", why, wait.get().toMillis());
        retryTimer = vertx.setTimer(Math.max(1, wait.get().toMillis()), t -> {
            synchronized (this) {
                retryTimer = -1;
                if (!closed) {
                    open(true);
                }
            }
        });
        return true;
    }

    private void giveUp(String message) {
        if (closed) {
            return;
        }
        shut();
        listener.failed(message);
    }

    private void shut() {
        closed = true;
        generation++;
        cancelTimer(setupTimer);
        cancelTimer(retryTimer);
        cancelTimer(quietTimer);
        cancelTimer(heardTimer);
        setupTimer = retryTimer = quietTimer = heardTimer = -1;
        WebSocket ws = socket;
        socket = null;
        if (ws != null) {
            ws.close();
        }
    }

    private void cancelTimer(long timer) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    private static Duration since(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos);
    }

    /** Gemini set the connection up: the seed, then what waited for it. */
    private void setupComplete() {
        if (ready) {
            return;
        }
        ready = true;
        cancelTimer(setupTimer);
        setupTimer = -1;
        if (seeding && (historyPhase || !history.isEmpty())) {
            JsonArray turns = new JsonArray();
            for (Entry e : history) {
                if (e.text != null && !e.text.isBlank()) {
                    turns.add(turn(e.role, e.text.strip()));
                }
            }
            boolean endsWithModel = !turns.isEmpty()
                    && "model".equals(turns.getJsonObject(turns.size() - 1).getString("role"));
            if (!historyPhase && !model.gemini3() && endsWithModel) {
                turns.add(turn("user", " ")); // a Gemini 2.5 seed ends with the user's turn (pipecat)
            }
            JsonObject content = new JsonObject().put("turnComplete", historyPhase);
            if (!turns.isEmpty()) {
                content.put("turns", turns);
            }
            send(new JsonObject().put("clientContent", content));
        }
        heldContext.forEach(this::send);
        heldContext.clear();
        List<Optional<String>> responds = new ArrayList<>(heldResponds);
        heldResponds.clear();
        responds.forEach(r -> ask(r.orElse(null)));
        while (!heldAudio.isEmpty()) {
            write(heldAudio.pollFirst(), true);
        }
    }

    private void send(JsonObject message) {
        write(message.encode(), false);
    }

    private void write(String message, boolean audio) {
        WebSocket ws = socket;
        if (ws != null && ready && (!audio || !ws.writeQueueFull())) { // a congested socket loses audio, never control
            ws.writeTextMessage(message);
        }
    }

    // ---- what Gemini says ----

    private synchronized void received(int gen, String text) {
        if (gen != generation || closed) {
            return;
        }
        JsonObject message;
        try {
            message = new JsonObject(text);
        } catch (DecodeException | ClassCastException notJson) {
            return;
        }
        if (message.containsKey("setupComplete")) {
            setupComplete();
        }
        JsonObject reported = message.getJsonObject("usageMetadata");
        if (reported != null) {
            long in = reported.getLong("promptTokenCount", 0L);
            long out = reported.getLong("responseTokenCount", 0L);
            TokenUsage tokens = new TokenUsage(in, out, reported.getLong("totalTokenCount", in + out));
            if (responseId != null) {
                usage = usage.plus(tokens);
            } else {
                spareUsage = spareUsage.plus(tokens);
            }
        }
        JsonObject update = message.getJsonObject("sessionResumptionUpdate");
        if (update != null) {
            String newHandle = update.getString("newHandle");
            resumable = update.getBoolean("resumable", false) && newHandle != null && !newHandle.isBlank();
            if (resumable) {
                handle = newHandle;
            }
        }
        if (message.containsKey("goAway")) {
            LOG.log(System.Logger.Level.INFO, "{0} ends the connection in {1}: resuming on a new one", provider,
                    message.getJsonObject("goAway", new JsonObject()).getString("timeLeft", "a while"));
            goingAway = true;
        }
        JsonObject content = message.getJsonObject("serverContent");
        if (content != null) {
            content(content);
        }
        JsonObject toolCall = message.getJsonObject("toolCall");
        if (toolCall != null) {
            toolCall(toolCall.getJsonArray("functionCalls", new JsonArray()));
        }
        JsonObject cancellation = message.getJsonObject("toolCallCancellation");
        if (cancellation != null) {
            for (Object id : cancellation.getJsonArray("ids", new JsonArray())) {
                String name = openCalls.remove(String.valueOf(id));
                if (name != null) { // its result, when it comes, is context
                    listener.warning(provider + " cancelled the call of " + name + " (the caller spoke)");
                }
            }
        }
        if (goingAway && responseId == null && openCalls.isEmpty() && !closed) {
            open(true); // Gemini ends this connection: a new one resumes the session, nothing being under way
        }
    }

    private void content(JsonObject content) {
        if (content.getBoolean("interrupted", false)) {
            interrupted();
        }
        JsonObject input = content.getJsonObject("inputTranscription");
        if (input != null && input.getString("text") != null && !input.getString("text").isEmpty()) {
            callerWords(input.getString("text"));
        }
        JsonObject modelTurn = content.getJsonObject("modelTurn");
        if (modelTurn != null) {
            for (Object p : modelTurn.getJsonArray("parts", new JsonArray())) {
                if (p instanceof JsonObject part && part.getJsonObject("inlineData") != null) {
                    audio(part.getJsonObject("inlineData"));
                }
            }
        }
        JsonObject output = content.getJsonObject("outputTranscription");
        if (output != null && output.getString("text") != null && !output.getString("text").isEmpty()) {
            modelWords(output.getString("text"));
        }
        if (content.getBoolean("turnComplete", false) && responseId != null) {
            endResponse(cancelled ? "cancelled" : "completed");
        }
    }

    /** Gemini's voice activity heard the caller over the model (or a message of ours cut its generation). */
    private void interrupted() {
        if (responseId != null) {
            cancelled = true;
        }
        if (askedDuringResponse) { // our own turn cut the generation: not the caller
            askedDuringResponse = false;
            return;
        }
        if (userItem != null && userStopped) {
            heard(); // the previous turn's words are settled: this is a new turn
        }
        if (userItem == null) {
            openUserTurn();
        }
        listener.speechStarted();
        awaitQuiet();
    }

    private void openUserTurn() {
        userItem = "gemini-u" + ++userSeq;
        userText.setLength(0);
        userEntry = null;
        userStopped = false;
    }

    /** Words of the caller's transcription: its turn's, or a new turn's first. */
    private void callerWords(String text) {
        if (userItem != null && userStopped && responseId == null && heardTimer < 0) {
            heard(); // the last turn was answered and heard: these words begin another
        }
        if (userItem == null) {
            openUserTurn();
            if (responseId == null) {
                listener.speechStarted();
            }
        }
        userText.append(userText.isEmpty() ? text.stripLeading() : text);
        if (userEntry != null) {
            userEntry.text = userText.toString();
        }
        awaitQuiet();
    }

    /** (Re)starts the wait after which an unanswered caller's turn is taken as stopped. */
    private void awaitQuiet() {
        if (userItem != null && !userStopped) {
            cancelTimer(quietTimer);
            String item = userItem;
            quietTimer = vertx.setTimer(QUIET_MS, t -> quiet(item));
        }
    }

    /** The caller's words got no answer for a while: its turn stopped and is heard. */
    private synchronized void quiet(String item) {
        if (closed || !item.equals(userItem)) {
            return;
        }
        quietTimer = -1;
        if (!userStopped) {
            stopUserTurn();
            heard();
        }
    }

    private void stopUserTurn() {
        cancelTimer(quietTimer);
        quietTimer = -1;
        userStopped = true;
        userEntry = new Entry("user", userText.toString());
        history.add(userEntry);
        listener.speechStopped(userItem);
    }

    /** The caller's turn is heard (once); a new one begins with the next words. */
    private void heard() {
        cancelTimer(heardTimer);
        heardTimer = -1;
        if (userItem == null) {
            return;
        }
        if (!userStopped) {
            stopUserTurn();
        }
        listener.heard(userItem, userText.toString().strip());
        userItem = null;
        userEntry = null;
    }

    /** The model's turn has content: a response begins unless one is under way (the caller's turn stops there). */
    private void beginResponse() {
        if (responseId != null) {
            return;
        }
        if (userItem != null && !userStopped) {
            stopUserTurn();
        }
        responseId = "gemini-r" + ++responseSeq;
        said.setLength(0);
        calls.clear();
        usage = spareUsage;
        spareUsage = TokenUsage.ZERO;
        cancelled = false;
        askedDuringResponse = false;
        conversion = null;
        responseEntry = new Entry("model", "");
        history.add(responseEntry);
        spoken.put(responseId, new Spoken(responseEntry));
        listener.responseStarted(responseId);
    }

    private void audio(JsonObject inline) {
        String mime = inline.getString("mimeType", "");
        String data = inline.getString("data");
        if (data == null || !mime.startsWith("audio/pcm")) {
            return;
        }
        beginResponse();
        if (cancelled) {
            return; // audio of a generation the caller cut
        }
        if (conversion == null) {
            conversion = SpeechRequests.Conversion.fromPcm(rate(mime), format);
        }
        deliver(conversion.chunk(Base64.getDecoder().decode(data)));
    }

    private void deliver(byte[] audio) {
        if (audio.length > 0) {
            spoken.get(responseId).bytes += audio.length;
            listener.audio(responseId, responseId, audio);
        }
    }

    /** The rate an {@code audio/pcm;rate=N} MIME type names (24 kHz when it names none). */
    static int rate(String mime) {
        int at = mime.indexOf("rate=");
        if (at < 0) {
            return OUTPUT_RATE;
        }
        String digits = mime.substring(at + 5).replaceAll("[^0-9].*$", "");
        return digits.isEmpty() ? OUTPUT_RATE : Integer.parseInt(digits);
    }

    private void modelWords(String text) {
        beginResponse();
        if (cancelled) {
            return;
        }
        said.append(text);
        responseEntry.text = said.toString();
        listener.transcript(responseId, text);
    }

    private void toolCall(JsonArray functionCalls) {
        if (functionCalls.isEmpty()) {
            return;
        }
        beginResponse();
        for (Object c : functionCalls) {
            if (!(c instanceof JsonObject call)) {
                continue;
            }
            String name = call.getString("name", "");
            String id = call.getString("id");
            if (id == null || id.isBlank()) {
                id = "gemini-call-" + (callNames.size() + 1);
            } else {
                givenIds.add(id);
            }
            Map<String, Object> arguments = ChatCompletions.arguments(call.getValue("args"));
            calls.add(new ToolCall(id, name, arguments));
            callNames.put(id, name);
            openCalls.put(id, name);
            history.add(new Entry("model", "[Called function " + name + " with args "
                    + new JsonObject(arguments).encode() + "]"));
        }
        endResponse("completed"); // Gemini awaits the results: the engine runs the calls
    }

    private void endResponse(String status) {
        if (responseId == null) {
            return;
        }
        if (conversion != null && !cancelled) {
            deliver(conversion.end());
        }
        String id = responseId;
        responseId = null;
        conversion = null;
        responseEntry = null;
        TokenUsage used = usage;
        usage = TokenUsage.ZERO;
        listener.responseDone(new SpeechToSpeech.Response(id, status, said.toString().strip(), List.copyOf(calls),
                used));
        calls.clear();
        if (userItem != null && userStopped && heardTimer < 0) {
            String item = userItem;
            heardTimer = vertx.setTimer(TRANSCRIPT_GRACE_MS, t -> {
                synchronized (this) {
                    if (!closed && item.equals(userItem)) {
                        heardTimer = -1;
                        heard();
                    }
                }
            });
        }
    }

    // ---- the engine ----

    @Override
    public synchronized void configure(SpeechToSpeech.Setup node) {
        if (closed || node.equals(setup)) {
            return;
        }
        setup = node;
        open(false); // Gemini cannot change a connection's setup: a new one, seeded from the call's context
    }

    @Override
    public synchronized void audio(byte[] frame) {
        if (closed) {
            return;
        }
        bytes += frame.length;
        short[] samples = format.encoding() == AudioFormat.Encoding.MULAW ? G711.decode(frame) : Pcm16.samples(frame);
        pending.writeBytes(Pcm16.bytes(inbound == null ? samples : inbound.process(samples)));
        if (++pendingFrames < FRAMES_PER_APPEND) {
            return;
        }
        String message = new JsonObject().put("realtimeInput", new JsonObject().put("audio", new JsonObject()
                .put("data", Base64.getEncoder().encodeToString(pending.toByteArray())).put("mimeType", INPUT_MIME)))
                .encode();
        pending.reset();
        pendingFrames = 0;
        if (ready) {
            write(message, true);
            return;
        }
        if (heldAudio.size() >= HOLD_APPENDS) {
            heldAudio.pollFirst();
        }
        heldAudio.addLast(message);
    }

    @Override
    public synchronized void respond(String instructions) {
        if (closed) {
            return;
        }
        String own = setup == null ? null : setup.instructions();
        String text = instructions;
        if (text != null && own != null && !own.isBlank() && text.startsWith(own)) {
            text = text.substring(own.length()); // the node's instructions, which Gemini has already
        }
        text = text == null || text.isBlank() ? null : text.strip();
        if (!ready) {
            heldResponds.add(Optional.ofNullable(text));
            return;
        }
        ask(text);
    }

    /** Asks Gemini for a response on the ready connection: the functions' results, or a turn of ours. */
    private void ask(String text) {
        if (responseId != null) {
            askedDuringResponse = true;
        }
        if (!answered.isEmpty()) {
            if (text != null) {
                send(new JsonObject().put("clientContent", new JsonObject()
                        .put("turns", new JsonArray().add(turn("user", text))).put("turnComplete", false)));
            }
            JsonArray responses = new JsonArray();
            answered.forEach(a -> responses.add(a.response));
            answered.clear();
            send(new JsonObject().put("toolResponse", new JsonObject().put("functionResponses", responses)));
        } else if (text != null || !model.gemini3()) {
            JsonObject content = new JsonObject().put("turnComplete", true);
            if (text != null) {
                content.put("turns", new JsonArray().add(turn("user", text)));
            }
            send(new JsonObject().put("clientContent", content));
        }
        if (model.gemini3()) {
            send(new JsonObject().put("realtimeInput", new JsonObject().put("text", " ")));
        }
    }

    @Override
    public synchronized void answer(String callId, String output) {
        if (closed) {
            return;
        }
        String name = callNames.getOrDefault(callId, "a function");
        String result = "[Function " + name + " returned " + output + "]";
        history.add(new Entry("user", result));
        if (openCalls.remove(callId) != null) { // Gemini awaits it on this connection
            JsonObject response = new JsonObject().put("name", name).put("response", output(output));
            if (givenIds.contains(callId)) {
                response.put("id", callId);
            }
            answered.add(new Answer(response, result));
        } else {
            context("user", result); // issued on an earlier connection, or cancelled
        }
    }

    @Override
    public synchronized void said(String text) {
        if (closed || text == null || text.isBlank()) {
            return;
        }
        history.add(new Entry("model", text.strip()));
        context("model", text.strip());
    }

    private static JsonObject contextMessage(String role, String text) {
        return new JsonObject().put("clientContent", new JsonObject()
                .put("turns", new JsonArray().add(turn(role, text))).put("turnComplete", false));
    }

    /** A turn of context that asks for nothing: sent now, after a resumption, or carried by the coming seed. */
    private void context(String role, String text) {
        JsonObject message = contextMessage(role, text);
        if (ready) {
            send(message);
        } else if (!seeding) {
            heldContext.add(message);
        }
    }

    /**
     * Gemini keeps nothing to truncate (it stopped generating at the barge-in): the model's words in this stream's
     * context are cut to the share of their audio the caller heard, for a later seeded connection.
     */
    @Override
    public synchronized void truncate(String itemId, long audioEndMs) {
        Spoken item = spoken.get(itemId);
        if (item == null || item.bytes <= 0 || item.entry.text == null) {
            return;
        }
        double share = Math.min(1, Math.max(0, audioEndMs / (double) format.millis(item.bytes)));
        String[] words = item.entry.text.strip().split("\\s+");
        int kept = (int) Math.round(words.length * share);
        if (kept < words.length) {
            item.entry.text = kept == 0 ? "" : String.join(" ", List.of(words).subList(0, kept)) + " ...";
        }
    }

    @Override
    public synchronized double seconds() {
        return bytes / (double) format.bytes(1_000);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            shut();
        }
    }
}
