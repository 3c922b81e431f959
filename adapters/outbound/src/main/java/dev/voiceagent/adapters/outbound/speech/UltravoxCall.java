package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.ChatCompletions;
import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.ToolCall;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One call on Ultravox Realtime, as its API reference (docs.ultravox.ai: Create Call, WebSocket Integration, Data
 * Messages, Call Stages) and pipecat's {@code services/ultravox/llm.py} with the reference's {@code
 * api/services/pipecat/realtime/ultravox_realtime.py} speak it.
 *
 * <p><b>The call.</b> An Ultravox call is created ({@code POST /api/calls}, the key as {@code X-API-Key}) with the
 * node's instructions as {@code systemPrompt}, its functions as {@code selectedTools} (temporary client tools: each
 * parameter of the function's JSON Schema a body parameter), the model and the voice, and a {@code serverWebSocket}
 * medium at the call's own sample rate both ways (16-bit PCM: the phone's μ-law decoded and encoded here, no
 * resampling; a 30-second client buffer, cleared on Ultravox's {@code playback_clear_buffer}); then its {@code joinUrl}
 * is joined: binary frames carry the audio both ways, text frames Ultravox's data messages. As the reference does, the
 * call is created when the engine first asks for speech, so that Ultravox's first speaker is right: a response asked
 * for is the agent's opening ({@code firstSpeakerSettings.agent}, with the response's instructions as its {@code
 * prompt}); a greeting played from a recording is the agent's first message ({@code initialMessages}) and the caller
 * speaks next ({@code firstSpeakerSettings.user}). What comes before the call is joined is held (the caller's audio,
 * two seconds at most); data messages wait for {@code call_started}.
 *
 * <p><b>The listener.</b> A response is the agent's turn, its id minted here: it starts at its first audio or
 * transcript and ends when Ultravox leaves its {@code speaking} state (completed, or cancelled after a {@code
 * playback_clear_buffer}: the caller cut in), with the agent's transcript as its text, the functions it invoked ({@code
 * client_tool_invocation}: Ultravox freezes the conversation until their results), and no tokens (Ultravox reports
 * none: it bills by the minute). The caller's turn is an item minted here: it starts at a barge-in ({@code
 * playback_clear_buffer}) or at its transcript, stops when Ultravox starts thinking after listening (or when the answer
 * starts) and is heard at its final {@code transcript}.
 *
 * <p><b>Results and nodes.</b> A function's result goes back as {@code client_tool_result} when the engine asks for the
 * next response (instructions for that response go before it as a {@code user_text_message} that waits, {@code urgency:
 * later}); Ultravox answers it by itself. A new node's setup rides on the next result, as the reference does:
 * Ultravox's call stages change the prompt and the tools atomically with a result of {@code responseType: new-stage}
 * ({@code systemPrompt}, {@code selectedTools}, the result as {@code toolResultText}), keeping the call's own
 * audio-native history; a setup changed with no result waiting (a transition undone at a barge-in) waits for the next
 * one. A response asked for without results (a line to say, an idle prompt) is a {@code user_text_message} with {@code
 * urgency: immediate} (its instructions, or "Please go on." when it has none); a line said for the agent once the call
 * began (a recording) is one that waits.
 *
 * <p><b>Truncation.</b> Ultravox has nothing to truncate: it keeps its own record of what it said and clears its
 * playback at the barge-in. Nothing is sent.
 *
 * <p><b>Faults.</b> A creation or join that fails with 408, 429, a 5xx or a time-out, and a call whose socket drops,
 * are tried again within the {@link RetryBudget}: a dropped call is continued by a new one created with {@code
 * priorCallId} (Ultravox carries its history over) and the current setup, the caller speaking next; results for the old
 * call's invocations go as text. Any other refusal ends the stream at once with Ultravox's words. Every method holds
 * the stream's lock.
 */
final class UltravoxCall implements SpeechToSpeech.Stream {

    private static final System.Logger LOG = System.getLogger(UltravoxCall.class.getName());

    /** Ultravox's recommendation for a socket that honours {@code playback_clear_buffer}. */
    static final int CLIENT_BUFFER_MS = 30_000;
    /** The caller's audio held while the call is being created and joined: two seconds, the oldest dropped first. */
    static final int HOLD_FRAMES = 100;

    /** What Ultravox is asked to create: the body, and the call it continues (null for a new one). */
    @FunctionalInterface
    interface Starter {
        Future<Joined> start(JsonObject body, String priorCallId);
    }

    /** A created call, joined. (A class, not a record: the native build's check takes records for JSON bodies.) */
    static final class Joined {
        final String callId;
        final WebSocket socket;

        Joined(String callId, WebSocket socket) {
            this.callId = callId;
            this.socket = socket;
        }
    }

    /** A refusal not worth another try (a bad key, a body Ultravox refused). */
    static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    private final Starter starter;
    private final Vertx vertx;
    private final RetryBudget budget;
    private final AudioFormat format;
    private final String model;
    private final String voice;
    private final SpeechToSpeech.Listener listener;

    // what Ultravox was told
    private SpeechToSpeech.Setup setup;
    private SpeechToSpeech.Setup stage;
    private JsonObject firstSpeaker;
    private final JsonArray initialMessages = new JsonArray();
    private final Map<String, String> invocations = new LinkedHashMap<>();

    // the call
    private boolean created;
    private String callId;
    private WebSocket socket;
    private int generation;
    private boolean started;
    private int failures;
    private long firstFailure = -1;
    private long retryTimer = -1;
    private boolean closed;
    private final Deque<byte[]> heldAudio = new ArrayDeque<>();
    private final List<JsonObject> heldData = new ArrayList<>();
    private final List<JsonObject> answered = new ArrayList<>();
    private final Map<String, String> callNames = new LinkedHashMap<>();

    // what Ultravox does
    private String state = "";
    /** A response of ours is coming (a result or a text was sent): Ultravox's thinking is not the caller's turn. */
    private boolean asked;
    private String userItem;
    private boolean userStarted;
    private boolean userStopped;
    private int userSeq;
    private String responseId;
    private int responseSeq;
    private final StringBuilder said = new StringBuilder();
    private final List<ToolCall> calls = new ArrayList<>();
    private boolean cancelled;
    private int carry = -1;
    private long bytes;

    UltravoxCall(Starter starter, Vertx vertx, RetryBudget budget, AudioFormat format, String model, String voice,
            SpeechToSpeech.Listener listener) {
        this.starter = starter;
        this.vertx = vertx;
        this.budget = budget;
        this.format = format;
        this.model = model;
        this.voice = voice;
        this.listener = listener;
    }

    // ---- what Ultravox is told ----

    /** The node's functions as Ultravox's temporary client tools, each schema property a body parameter. */
    static JsonArray tools(List<FunctionSpec> functions) {
        JsonArray tools = new JsonArray();
        for (FunctionSpec f : functions) {
            JsonObject schema = new JsonObject(f.parameters());
            JsonObject properties = schema.getJsonObject("properties", new JsonObject());
            JsonArray required = schema.getJsonArray("required", new JsonArray());
            JsonArray parameters = new JsonArray();
            for (String name : properties.fieldNames()) {
                parameters.add(new JsonObject().put("name", name).put("location", "PARAMETER_LOCATION_BODY")
                        .put("schema", properties.getValue(name)).put("required", required.contains(name)));
            }
            JsonObject tool = new JsonObject().put("modelToolName", f.name()).put("dynamicParameters", parameters)
                    .put("client", new JsonObject());
            if (f.description() != null && !f.description().isBlank()) {
                tool.put("description", f.description());
            }
            tools.add(new JsonObject().put("temporaryTool", tool));
        }
        return tools;
    }

    /** The Create Call body: the stage, the model, the voice, the socket's audio, who speaks first. */
    static JsonObject body(SpeechToSpeech.Setup stage, String model, String voice, int sampleRate,
            JsonObject firstSpeaker, JsonArray initialMessages) {
        JsonObject body = new JsonObject().put("systemPrompt", stage.instructions()).put("model", model)
                .put("voice", voice).put("selectedTools", tools(stage.functions()))
                .put("medium", new JsonObject().put("serverWebSocket", new JsonObject()
                        .put("inputSampleRate", sampleRate).put("outputSampleRate", sampleRate)
                        .put("clientBufferSizeMs", CLIENT_BUFFER_MS)))
                .put("firstSpeakerSettings", firstSpeaker);
        if (initialMessages != null && !initialMessages.isEmpty()) {
            body.put("initialMessages", initialMessages);
        }
        return body;
    }

    private static JsonObject text(String text, String urgency) {
        return new JsonObject().put("type", "user_text_message").put("text", text).put("urgency", urgency);
    }

    // ---- the call ----

    /** Creates and joins the call (again, continuing {@code prior}, after a drop). */
    private void create(String prior) {
        created = true;
        if (stage == null) {
            stage = setup != null ? setup : new SpeechToSpeech.Setup("", List.of(), true);
        }
        started = false;
        int gen = ++generation;
        JsonObject body = body(stage, model, voice, format.sampleRate(), prior == null ? firstSpeaker
                : new JsonObject().put("user", new JsonObject()), prior == null ? initialMessages : null);
        Future<Joined> joining;
        try {
            joining = starter.start(body, prior);
        } catch (RuntimeException refused) {
            joining = Future.failedFuture(refused);
        }
        joining.onComplete(result -> joined(gen, result));
    }

    private synchronized void joined(int gen, AsyncResult<Joined> result) {
        if (gen != generation || closed) {
            if (result.succeeded()) {
                result.result().socket.close();
            }
            return;
        }
        if (result.failed()) {
            Throwable failure = result.cause();
            boolean again = !(failure instanceof GuardedHttp.Refused) && !(failure instanceof Refused);
            Duration retryAfter = null;
            if (failure instanceof GuardedHttp.SocketRefused refused) {
                again = RetryBudget.transientStatus(refused.status);
                retryAfter = RetryBudget.retryAfter(refused.retryAfter, Instant.now());
            }
            String message = "Ultravox: " + failure.getMessage();
            if (!again || !retry(retryAfter, message)) {
                giveUp(message);
            }
            return;
        }
        WebSocket ws = result.result().socket;
        callId = result.result().callId;
        socket = ws;
        ws.binaryMessageHandler(buffer -> agentAudio(gen, buffer));
        ws.textMessageHandler(text -> received(gen, text));
        ws.closeHandler(v -> lost(gen, ws));
        ws.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "ultravox: {0}", e.toString()));
        while (!heldAudio.isEmpty()) {
            writeAudio(heldAudio.pollFirst());
        }
    }

    /** The call's socket closed without us closing it: a new call continues it, within the budget. */
    private synchronized void lost(int gen, WebSocket ws) {
        if (gen != generation || closed) {
            return;
        }
        socket = null;
        String reason = ws.closeReason();
        String message = "Ultravox closed the call (" + ws.closeStatusCode() + (reason == null || reason.isBlank()
                ? "" : " " + reason) + ")";
        if (responseId != null) {
            endResponse(cancelled ? "cancelled" : "incomplete");
        }
        invocations.clear(); // their results go as text to the call that continues this one
        answered.replaceAll(this::asText);
        heldData.replaceAll(this::asText);
        stage = setup; // the new call has the current node
        if (firstFailure >= 0 && since(firstFailure).compareTo(budget.budget()) <= 0) {
            if (!retry(null, message)) {
                giveUp(message);
            }
            return;
        }
        LOG.log(System.Logger.Level.INFO, "{0}; continuing it in a new call", message);
        failures = 0;
        firstFailure = System.nanoTime();
        create(callId);
    }

    /** A result for an invocation of a call that dropped, as text for the call that continues it. */
    private JsonObject asText(JsonObject message) {
        if (!"client_tool_result".equals(message.getString("type"))) {
            return message;
        }
        String output = message.getString("result");
        if ("new-stage".equals(message.getString("responseType"))) {
            output = new JsonObject(output).getString("toolResultText");
        }
        return text("[Function " + callNames.getOrDefault(message.getString("invocationId"), "a function")
                + " returned " + output + "]", "later");
    }

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
        String prior = callId;
        retryTimer = vertx.setTimer(Math.max(1, wait.get().toMillis()), t -> {
            synchronized (this) {
                retryTimer = -1;
                if (!closed) {
                    create(prior);
                }
            }
        });
        return true;
    }

    private static Duration since(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos);
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
        if (retryTimer >= 0) {
            vertx.cancelTimer(retryTimer);
            retryTimer = -1;
        }
        WebSocket ws = socket;
        socket = null;
        if (ws != null) {
            ws.close();
        }
    }

    private void send(JsonObject message) {
        if (socket != null && started) {
            socket.writeTextMessage(message.encode());
        } else {
            heldData.add(message);
        }
    }

    private void writeAudio(byte[] pcm) {
        if (!socket.writeQueueFull()) { // a congested socket loses audio, never control
            socket.writeBinaryMessage(Buffer.buffer(pcm));
        }
    }

    // ---- what Ultravox says ----

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
        switch (message.getString("type", "")) {
            case "call_started" -> {
                started = true;
                List<JsonObject> held = new ArrayList<>(heldData);
                heldData.clear();
                held.forEach(this::send);
            }
            case "state" -> state(message.getString("state", ""));
            case "playback_clear_buffer" -> bargeIn();
            case "transcript" -> {
                if ("user".equals(message.getString("role"))) {
                    if (message.getBoolean("final", false)) {
                        callerSaid(message.getString("text", ""));
                    }
                } else if ("agent".equals(message.getString("role"))) {
                    agentSaid(message.getString("text"), message.getString("delta"));
                }
            }
            case "client_tool_invocation" -> invoked(message);
            default -> {
                // pong, debug, call events: nothing to do
            }
        }
    }

    private void state(String next) {
        String previous = state;
        state = next;
        if ("thinking".equals(next) && "listening".equals(previous) && !asked && responseId == null) {
            if (userItem == null) { // the caller's turn ended without its words yet
                openUserTurn(false);
            }
            stopUserTurn();
        }
        if (responseId != null && !"speaking".equals(next) && ("speaking".equals(previous)
                || "listening".equals(next))) {
            endResponse(cancelled ? "cancelled" : "completed");
        }
    }

    /** Ultravox heard the caller over the agent: its buffered audio is cleared. */
    private void bargeIn() {
        if (responseId != null) {
            cancelled = true;
        }
        if (userItem == null) {
            openUserTurn(true);
        } else if (!userStarted) {
            userStarted = true;
            listener.speechStarted();
        }
    }

    private void openUserTurn(boolean speaking) {
        userItem = "ultravox-u" + ++userSeq;
        userStopped = false;
        userStarted = speaking;
        if (speaking) {
            listener.speechStarted();
        }
    }

    private void stopUserTurn() {
        if (userItem != null && !userStopped) {
            userStopped = true;
            listener.speechStopped(userItem);
        }
    }

    /** The caller's turn, transcribed (Ultravox sends only final user transcripts). */
    private void callerSaid(String text) {
        if (userItem == null) {
            openUserTurn(responseId == null);
        }
        stopUserTurn();
        listener.heard(userItem, text.strip());
        userItem = null;
    }

    private void beginResponse() {
        if (responseId != null) {
            return;
        }
        stopUserTurn();
        asked = false;
        responseId = "ultravox-r" + ++responseSeq;
        said.setLength(0);
        calls.clear();
        cancelled = false;
        carry = -1;
        listener.responseStarted(responseId);
    }

    private synchronized void agentAudio(int gen, Buffer buffer) {
        if (gen != generation || closed || buffer.length() == 0) {
            return;
        }
        beginResponse();
        if (cancelled) {
            return; // audio Ultravox had sent before the barge-in
        }
        byte[] pcm = buffer.getBytes();
        if (carry >= 0) { // a sample split between frames
            byte[] joined = new byte[pcm.length + 1];
            joined[0] = (byte) carry;
            System.arraycopy(pcm, 0, joined, 1, pcm.length);
            pcm = joined;
            carry = -1;
        }
        if (pcm.length % 2 == 1) {
            carry = pcm[pcm.length - 1] & 0xFF;
            pcm = Arrays.copyOf(pcm, pcm.length - 1);
        }
        byte[] audio = format.encoding() == AudioFormat.Encoding.MULAW ? G711.encode(Pcm16.samples(pcm)) : pcm;
        if (audio.length > 0) {
            listener.audio(responseId, responseId, audio);
        }
    }

    /** The agent's transcript: the whole of it so far ({@code text}) or what was added ({@code delta}). */
    private void agentSaid(String text, String delta) {
        beginResponse();
        String added = delta != null ? delta : text != null && text.startsWith(said.toString())
                ? text.substring(said.length()) : null;
        if (added == null && text != null) { // a full text that does not continue ours: it replaces it
            said.setLength(0);
            said.append(text);
            return;
        }
        if (added != null && !added.isEmpty() && !cancelled) {
            said.append(added);
            listener.transcript(responseId, added);
        }
    }

    private void invoked(JsonObject message) {
        String id = message.getString("invocationId");
        String name = message.getString("toolName", "");
        if (id == null) {
            return;
        }
        beginResponse();
        calls.add(new ToolCall(id, name, ChatCompletions.arguments(message.getValue("parameters"))));
        invocations.put(id, name);
        callNames.put(id, name);
        if (!"speaking".equals(state)) { // otherwise when the agent's words before the call are out
            endResponse("completed");
        }
    }

    private void endResponse(String status) {
        if (responseId == null) {
            return;
        }
        String id = responseId;
        responseId = null;
        listener.responseDone(new SpeechToSpeech.Response(id, status, said.toString().strip(), List.copyOf(calls),
                TokenUsage.ZERO));
        calls.clear();
    }

    // ---- the engine ----

    @Override
    public synchronized void configure(SpeechToSpeech.Setup node) {
        if (closed) {
            return;
        }
        setup = node;
        if (!created) {
            stage = node; // the call is created with it
        }
    }

    @Override
    public synchronized void audio(byte[] frame) {
        if (closed) {
            return;
        }
        bytes += frame.length;
        byte[] pcm = format.encoding() == AudioFormat.Encoding.MULAW ? Pcm16.bytes(G711.decode(frame)) : frame;
        if (socket != null) {
            writeAudio(pcm);
            return;
        }
        if (heldAudio.size() >= HOLD_FRAMES) {
            heldAudio.pollFirst();
        }
        heldAudio.addLast(pcm);
    }

    @Override
    public synchronized void respond(String instructions) {
        if (closed) {
            return;
        }
        String text = instructions;
        String own = setup == null ? null : setup.instructions();
        if (text != null && own != null && !own.isBlank() && text.startsWith(own)) {
            text = text.substring(own.length()); // the node's instructions, which Ultravox has already
        }
        text = text == null || text.isBlank() ? null : text.strip();
        if (!created) { // the agent opens the call
            firstSpeaker = new JsonObject().put("agent", text == null ? new JsonObject()
                    : new JsonObject().put("prompt", text));
            stage = setup;
            asked = true;
            create(null);
            return;
        }
        asked = true;
        if (!answered.isEmpty()) {
            if (text != null) {
                send(text(text, "later"));
            }
            boolean results = answered.stream().anyMatch(a -> "client_tool_result".equals(a.getString("type")));
            if (!results) { // results of an earlier call, as text: the last one asks for the response
                answered.getLast().put("urgency", "soon");
            }
            answered.forEach(this::send);
            answered.clear();
        } else {
            send(text(text == null ? "Please go on." : text, "immediate"));
        }
    }

    @Override
    public synchronized void answer(String callId, String output) {
        if (closed) {
            return;
        }
        if (invocations.remove(callId) == null) { // an invocation of a call that dropped
            answered.add(text("[Function " + callNames.getOrDefault(callId, "a function") + " returned " + output
                    + "]", "later"));
            return;
        }
        JsonObject result = new JsonObject().put("type", "client_tool_result").put("invocationId", callId);
        if (setup != null && !setup.equals(stage)) { // the new node's stage rides on this result
            result.put("responseType", "new-stage").put("result", new JsonObject()
                    .put("systemPrompt", setup.instructions()).put("selectedTools", tools(setup.functions()))
                    .put("toolResultText", output).encode());
            stage = setup;
        } else {
            result.put("result", output);
        }
        answered.add(result);
    }

    @Override
    public synchronized void said(String text) {
        if (closed || text == null || text.isBlank()) {
            return;
        }
        if (!created) { // a greeting played from its recording: the agent's first message, the caller's turn next
            initialMessages.add(new JsonObject().put("role", "MESSAGE_ROLE_AGENT").put("text", text.strip())
                    .put("medium", "MESSAGE_MEDIUM_VOICE"));
            firstSpeaker = new JsonObject().put("user", new JsonObject());
            stage = setup;
            create(null);
            return;
        }
        send(text("(The agent said: \"" + text.strip().replace("\"", "'") + "\")", "later"));
    }

    /** Ultravox keeps its own record of what it said and clears its playback at the barge-in: nothing to send. */
    @Override
    public void truncate(String itemId, long audioEndMs) {
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
