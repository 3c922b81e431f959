package dev.voiceagent.deploy.support;

import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local stand-in for OpenAI's Realtime API (WebSocket {@code /v1/realtime?model=...}, GA events), and for the two that
 * speak it with their differences ({@link Dialect}: Azure OpenAI's v1 API at {@code /openai/v1/realtime}, xAI's Grok
 * Voice Agent API with its own session shape), checking what the service sends as the API does and answering as it
 * would:
 * <ul>
 * <li>{@code session.update} first, with server VAD and the call's audio: {@code audio/pcmu} in and out on the phone,
 * {@code audio/pcm} at 24 kHz (OpenAI, Azure) or 16 kHz (Grok) on a browser call; OpenAI's and Azure's of type
 * realtime with the voice and VAD under audio, Grok's with both at the session's top and no type; each one is kept
 * ({@link #SESSIONS}) so a test sees the node's instructions and functions;</li>
 * <li>server VAD on the appended μ-law: {@code speech_started} when a 100 ms append is loud, {@code speech_stopped} and
 * {@code committed} after the session's silence_duration_ms of quiet; with create_response it answers by itself, and
 * with interrupt_response a caller who speaks cancels the response in progress ({@code response.done} cancelled); the
 * turn's transcription ({@code ...input_audio_transcription.completed}, the next scripted caller line) after
 * {@link FakeVoiceProviders#sttDelayMs};</li>
 * <li>a response plays the next scripted {@link Reply}: its words as transcript deltas with 250 ms of audio each
 * (faster than real time, as the API sends), or a function call; {@code response.done} with the output items and usage
 * (40 in, 20 out). A {@code response.create} whose instructions say a line exactly says it (quoted) without a scripted
 * reply;</li>
 * <li>what the API refuses is an {@code error} event and a violation: a {@code response.create} while a response is
 * active, a {@code function_call_output} for an unknown or answered call, a truncate past the item's audio.</li>
 * </ul>
 */
public final class FakeRealtimeModel {

    public static final List<JsonObject> SESSIONS = new CopyOnWriteArrayList<>();
    public static final List<String> CLIENT_EVENTS = new CopyOnWriteArrayList<>();
    public static final List<JsonObject> TRUNCATES = new CopyOnWriteArrayList<>();
    public static final List<JsonObject> FUNCTION_OUTPUTS = new CopyOnWriteArrayList<>();
    public static final List<JsonObject> RESPONSE_REQUESTS = new CopyOnWriteArrayList<>();
    public static final List<String> QUERIES = new CopyOnWriteArrayList<>();
    public static final List<String> CANCELLED = new CopyOnWriteArrayList<>();
    /** The audio of a word of a reply. */
    static final int WORD_MS = 250;
    static final int LOUD = 600;

    static void reset() {
        SESSIONS.clear();
        CLIENT_EVENTS.clear();
        TRUNCATES.clear();
        FUNCTION_OUTPUTS.clear();
        RESPONSE_REQUESTS.clear();
        QUERIES.clear();
        CANCELLED.clear();
        DIALECTS.clear();
    }

    /** Which of the protocol's speakers this is. */
    public enum Dialect { OPENAI, AZURE, GROK }

    /** The dialect of each session served, in order. */
    public static final List<Dialect> DIALECTS = new CopyOnWriteArrayList<>();

    private final Vertx vertx;
    private final ServerWebSocket ws;
    private final Dialect dialect;
    /** The session's PCM rate; 0 for μ-law. */
    private int pcmRate;
    private final Deque<String> script;
    private JsonObject session;
    private boolean speaking;
    private int quietMs;
    private int items;
    private int responses;
    private Active active;
    private final Set<String> openCalls = new HashSet<>();
    private final Map<String, Integer> itemAudioMs = new HashMap<>();

    private final class Active {
        final String id;
        boolean cancelled;
        boolean done;

        Active(String id) {
            this.id = id;
        }
    }

    private FakeRealtimeModel(Vertx vertx, ServerWebSocket ws, Dialect dialect) {
        this.vertx = vertx;
        this.ws = ws;
        this.dialect = dialect;
        this.script = FakeVoiceProviders.callerScript.isEmpty() ? null
                : new ConcurrentLinkedDeque<>(FakeVoiceProviders.callerScript);
    }

    static void serve(Vertx vertx, ServerWebSocket ws, String query, Dialect dialect) {
        QUERIES.add(query);
        DIALECTS.add(dialect);
        FakeRealtimeModel model = new FakeRealtimeModel(vertx, ws, dialect);
        ws.binaryMessageHandler(b -> violation("a binary frame (audio goes base64)"));
        ws.textMessageHandler(text -> model.event(new JsonObject(text)));
        ws.writeTextMessage(new JsonObject().put("type", "session.created").put("session", new JsonObject()
                .put("type", "realtime")).encode());
    }

    private static void violation(String what) {
        FakeVoiceProviders.VIOLATIONS.add("realtime: " + what);
    }

    private synchronized void event(JsonObject m) {
        String type = m.getString("type", "");
        if (!"input_audio_buffer.append".equals(type)) {
            CLIENT_EVENTS.add(type);
        }
        if (session == null && !"session.update".equals(type)) {
            violation(type + " before session.update");
        }
        switch (type) {
            case "session.update" -> update(m.getJsonObject("session", new JsonObject()));
            case "input_audio_buffer.append" -> append(Base64.getDecoder().decode(m.getString("audio", "")));
            case "response.create" -> {
                RESPONSE_REQUESTS.add(m);
                if (active != null && !active.done) {
                    error("conversation_already_has_active_response", "Conversation already has an active"
                            + " response in progress: " + active.id);
                    violation("response.create while " + active.id + " is active");
                    return;
                }
                String instructions = m.getJsonObject("response", new JsonObject()).getString("instructions");
                respond(exactly(instructions));
            }
            case "conversation.item.create" -> {
                JsonObject item = m.getJsonObject("item", new JsonObject());
                if ("function_call_output".equals(item.getString("type"))) {
                    FUNCTION_OUTPUTS.add(item);
                    if (!openCalls.remove(item.getString("call_id"))) {
                        error("invalid_value", "No function call with call_id " + item.getString("call_id"));
                        violation("an output for call " + item.getString("call_id") + " which is not open");
                    }
                } else if (!"message".equals(item.getString("type"))) {
                    violation("an item of type " + item.getString("type"));
                }
            }
            case "conversation.item.truncate" -> {
                TRUNCATES.add(m);
                Integer ms = itemAudioMs.get(m.getString("item_id"));
                long end = m.getLong("audio_end_ms", -1L);
                if (ms == null || end < 0 || end > ms || m.getInteger("content_index", -1) != 0) {
                    error("invalid_value", "audio_end_ms " + end + " is not within the item's audio");
                    violation("a truncate outside the item's audio: " + m.encode() + " (audio " + ms + " ms)");
                }
            }
            default -> violation("an unknown event " + type);
        }
    }

    private void update(JsonObject s) {
        boolean grok = dialect == Dialect.GROK;
        JsonObject audio = s.getJsonObject("audio", new JsonObject());
        JsonObject input = audio.getJsonObject("input", new JsonObject());
        JsonObject output = audio.getJsonObject("output", new JsonObject());
        JsonObject vad = grok ? s.getJsonObject("turn_detection", new JsonObject())
                : input.getJsonObject("turn_detection", new JsonObject());
        JsonObject in = input.getJsonObject("format", new JsonObject());
        JsonObject out = output.getJsonObject("format", new JsonObject());
        int rate = "audio/pcm".equals(in.getString("type")) ? in.getInteger("rate", 24_000) : 0;
        boolean formats = in.equals(out) && (rate == 0 ? "audio/pcmu".equals(in.getString("type"))
                : rate == (grok ? 16_000 : 24_000));
        boolean shape = grok ? s.getString("type") == null && !vad.containsKey("create_response")
                && !output.containsKey("voice") : "realtime".equals(s.getString("type"));
        if (!shape || !formats || !"server_vad".equals(vad.getString("type")) || s.getString("instructions") == null
                || session != null && rate != pcmRate) {
            violation("a session " + dialect + " should not be asked for: " + s.encode());
        }
        if (session != null && (grok ? s.containsKey("voice") : output.containsKey("voice"))) {
            violation("the voice changed after the session started");
        }
        for (Object t : s.getJsonArray("tools", new JsonArray())) {
            JsonObject tool = (JsonObject) t;
            if (!"function".equals(tool.getString("type")) || tool.getString("name") == null
                    || tool.getJsonObject("parameters") == null) {
                violation("a tool that is not a function: " + tool.encode());
            }
        }
        SESSIONS.add(s);
        session = s;
        pcmRate = rate;
        ws.writeTextMessage(new JsonObject().put("type", "session.updated").put("session", s).encode());
    }

    /** The session's server VAD (Grok's has no response controls: it always answers and always stops). */
    private JsonObject vad() {
        return dialect == Dialect.GROK ? session.getJsonObject("turn_detection")
                : session.getJsonObject("audio").getJsonObject("input").getJsonObject("turn_detection");
    }

    private void append(byte[] bytes) {
        short[] samples = pcmRate == 0 ? G711.decode(bytes) : Pcm16.samples(bytes);
        int ms = samples.length * 1_000 / (pcmRate == 0 ? 8_000 : pcmRate);
        FakeVoiceProviders.STT_AUDIO_FRAMES.addAndGet(ms / 20);
        double sum = 0;
        for (short s : samples) {
            sum += (double) s * s;
        }
        boolean loud = samples.length > 0 && Math.sqrt(sum / samples.length) > LOUD;
        if (loud) {
            quietMs = 0;
            if (!speaking) {
                speaking = true;
                send(new JsonObject().put("type", "input_audio_buffer.speech_started")
                        .put("item_id", "item_u" + (items + 1)));
                if (active != null && !active.done && vad().getBoolean("interrupt_response", true)) {
                    active.cancelled = true;
                    active.done = true;
                    CANCELLED.add(active.id);
                    send(new JsonObject().put("type", "response.done").put("response", new JsonObject()
                            .put("id", active.id).put("status", "cancelled").put("output", new JsonArray())
                            .put("usage", usage(20, 5))));
                }
            }
        } else if (speaking && (quietMs += ms) >= vad().getInteger("silence_duration_ms", 500)) {
            speaking = false;
            String item = "item_u" + ++items;
            send(new JsonObject().put("type", "input_audio_buffer.speech_stopped").put("item_id", item));
            send(new JsonObject().put("type", "input_audio_buffer.committed").put("item_id", item));
            String line = script != null ? script.pollFirst() : FakeVoiceProviders.CALLER_LINES.pollFirst();
            vertx.setTimer(FakeVoiceProviders.sttDelayMs, t -> send(new JsonObject()
                    .put("type", "conversation.item.input_audio_transcription.completed").put("item_id", item)
                    .put("transcript", line == null ? "" : line)));
            if (vad().getBoolean("create_response", true)) {
                if (active != null && !active.done) {
                    return; // the caller could not cut in: its words wait for the next response
                }
                Reply reply = FakeVoiceProviders.REPLY_FOR.isEmpty() ? FakeVoiceProviders.REPLIES.pollFirst()
                        : FakeVoiceProviders.REPLY_FOR.getOrDefault(line == null ? "" : line,
                                Reply.says("Sorry, could you say that again?"));
                respond(reply);
            }
        }
    }

    /** A response's instructions that say a line word for word: that line, as a reply. */
    private static Reply exactly(String instructions) {
        if (instructions == null || !instructions.contains("exactly")) {
            return FakeVoiceProviders.REPLIES.pollFirst();
        }
        int open = instructions.indexOf('"');
        int close = instructions.lastIndexOf('"');
        if (open < 0 || close <= open) {
            return FakeVoiceProviders.REPLIES.pollFirst();
        }
        String line = instructions.substring(open + 1, close);
        return instructions.startsWith("Say exactly") ? Reply.says(line) : Reply.says(line + " "
                + (FakeVoiceProviders.REPLIES.isEmpty() ? "" : FakeVoiceProviders.REPLIES.pollFirst().text()));
    }

    private void respond(Reply reply) {
        Active response = new Active("resp_" + ++responses);
        active = response;
        send(new JsonObject().put("type", "response.created").put("response", new JsonObject()
                .put("id", response.id).put("status", "in_progress")));
        Reply said = reply == null ? Reply.says("Okay.") : reply;
        if (said.tool() != null) {
            String call = "call_" + response.id;
            vertx.setTimer(FakeVoiceProviders.llmDelayMs, t -> {
                synchronized (this) {
                    if (response.cancelled) {
                        return;
                    }
                    openCalls.add(call);
                    JsonObject item = new JsonObject().put("type", "function_call").put("id", "item_f" + responses)
                            .put("call_id", call).put("name", said.tool()).put("arguments", said.arguments());
                    send(new JsonObject().put("type", "response.function_call_arguments.done")
                            .put("response_id", response.id).put("call_id", call).put("name", said.tool())
                            .put("arguments", said.arguments()));
                    response.done = true;
                    send(new JsonObject().put("type", "response.done").put("response", new JsonObject()
                            .put("id", response.id).put("status", "completed")
                            .put("output", new JsonArray().add(item)).put("usage", usage(40, 20))));
                }
            });
            return;
        }
        String item = "item_a" + response.id;
        String[] words = said.text().split(" ");
        for (int i = 0; i <= words.length; i++) {
            int index = i;
            vertx.setTimer(FakeVoiceProviders.llmDelayMs + (long) i * said.wordMs(), t -> {
                synchronized (this) {
                    if (response.cancelled || ws.isClosed()) {
                        return;
                    }
                    if (index < words.length) {
                        send(new JsonObject().put("type", "response.output_audio_transcript.delta")
                                .put("response_id", response.id).put("item_id", item)
                                .put("delta", (index == 0 ? "" : " ") + words[index]));
                        send(new JsonObject().put("type", "response.output_audio.delta")
                                .put("response_id", response.id).put("item_id", item)
                                .put("delta", Base64.getEncoder().encodeToString(tone(index, pcmRate))));
                        itemAudioMs.merge(item, WORD_MS, Integer::sum);
                        return;
                    }
                    response.done = true;
                    send(new JsonObject().put("type", "response.output_audio_transcript.done")
                            .put("response_id", response.id).put("item_id", item).put("transcript", said.text()));
                    send(new JsonObject().put("type", "response.done").put("response", new JsonObject()
                            .put("id", response.id).put("status", "completed")
                            .put("output", new JsonArray().add(new JsonObject().put("type", "message")
                                    .put("id", item).put("role", "assistant").put("content", new JsonArray()
                                            .add(new JsonObject().put("type", "output_audio")
                                                    .put("transcript", said.text())))))
                            .put("usage", usage(40, 20))));
                }
            });
        }
    }

    /** 250 ms of a tone, louder on odd words, as μ-law or as PCM at {@code pcmRate}. */
    private static byte[] tone(int word, int pcmRate) {
        int rate = pcmRate == 0 ? 8_000 : pcmRate;
        short[] pcm = new short[rate * WORD_MS / 1_000];
        for (int i = 0; i < pcm.length; i++) {
            pcm[i] = (short) (Math.sin(2 * Math.PI * 440 * i / (double) rate) * (word % 2 == 0 ? 6_000 : 9_000));
        }
        return pcmRate == 0 ? G711.encode(pcm) : Pcm16.bytes(pcm);
    }

    private static JsonObject usage(int in, int out) {
        return new JsonObject().put("input_tokens", in).put("output_tokens", out).put("total_tokens", in + out);
    }

    private void error(String code, String message) {
        send(new JsonObject().put("type", "error").put("error", new JsonObject().put("type", "invalid_request_error")
                .put("code", code).put("message", message)));
    }

    private void send(JsonObject event) {
        if (!ws.isClosed()) {
            ws.writeTextMessage(event.encode());
        }
    }
}
