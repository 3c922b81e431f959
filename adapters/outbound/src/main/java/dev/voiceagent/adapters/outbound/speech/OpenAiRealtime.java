package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.ChatCompletions;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.ToolCall;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Deque;
import java.util.List;

/**
 * One call on OpenAI's Realtime API or one that speaks its protocol ({@link Dialect}): OpenAI's ({@code
 * /realtime?model=...}, GA event names; the beta's audio event names are read too), Azure OpenAI's (the GA v1 API, or a
 * deployment still on the preview protocol) and xAI's Grok Voice Agent API (OpenAI's event names, its own session
 * shape). A {@code session.update} per node (instructions, function tools, the call's audio format in and out, server
 * VAD that answers by itself and, where the node allows it and the dialect can say so, stops when the caller cuts in,
 * the caller's turns transcribed on the side); the caller's audio appended every 40 ms; function results as
 * {@code function_call_output} items; {@code response.create}; {@code conversation.item.truncate} at what the caller
 * heard. On the phone the μ-law goes both ways as it is; a browser's 16 kHz PCM is sent at the rate the model takes
 * (OpenAI's and Azure's 24 kHz, resampled; Grok takes 16 kHz) and the model's audio comes back resampled to the
 * call's. Messages sent before the socket opened are held (the caller's audio at most {@link #HOLD_APPENDS} appends,
 * two seconds).
 */
final class OpenAiRealtime implements SpeechToSpeech.Stream {

    private static final System.Logger LOG = System.getLogger(OpenAiRealtime.class.getName());
    static final int HOLD_APPENDS = 50;
    /** 40 ms per append: the model's voice activity decides turns, so the caller's audio reaches it with little delay. */
    static final int FRAMES_PER_APPEND = 2;
    /** Server VAD on a phone line: OpenAI's defaults (0.5, 300 ms before, 500 ms of silence ends the turn). */
    static final double VAD_THRESHOLD = 0.5;
    static final int PREFIX_PADDING_MS = 300;
    static final int SILENCE_MS = 500;
    /** OpenAI's (and Azure's) {@code audio/pcm}: 24 kHz, 16-bit little-endian, mono. */
    static final int OPENAI_PCM_RATE = 24_000;

    /** Which Realtime protocol the provider speaks. */
    enum Dialect {
        /** OpenAI's GA Realtime API. */
        OPENAI("OpenAI Realtime"),
        /** Azure OpenAI's GA v1 Realtime API: OpenAI's protocol, the deployment as the model, the key as api-key. */
        AZURE("Azure OpenAI Realtime"),
        /**
         * Azure OpenAI's preview Realtime API (a date api-version): OpenAI's beta session shape ({@code g711_ulaw} or
         * {@code pcm16}, the voice and formats at the session's top level) and beta event names.
         */
        AZURE_PREVIEW("Azure OpenAI Realtime"),
        /**
         * xAI's Grok Voice Agent API: OpenAI's event names; the session has the voice and turn detection at its top
         * level, no type and no response controls (its server VAD always answers and stops when the caller speaks), and
         * PCM at the call's own rate.
         */
        GROK("Grok Realtime");

        final String display;

        Dialect(String display) {
            this.display = display;
        }
    }

    /** The model's voice and the caller's language (for the transcription beside it). */
    static final class Voice {
        final String voice;
        final String language;
        final String transcriptionModel;

        Voice(String voice, String language, String transcriptionModel) {
            this.voice = voice;
            this.language = language;
            this.transcriptionModel = transcriptionModel;
        }
    }

    private final SpeechToSpeech.Listener listener;
    private final Dialect dialect;
    private final AudioFormat format;
    private final Voice voice;
    /** The caller's PCM to the model's rate, and the model's back to the call's; null when none is needed. */
    private final Resampler toModel;
    private Resampler fromModel;
    private int carry = -1;
    private final Deque<String> held = new ArrayDeque<>();
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private int heldAppends;
    private int pendingFrames;
    private boolean voiceSent;
    private WebSocket socket;
    private long bytes;
    private boolean closed;

    OpenAiRealtime(Dialect dialect, AudioFormat format, Voice voice, SpeechToSpeech.Listener listener) {
        this.dialect = dialect;
        this.format = format;
        this.voice = voice;
        this.listener = listener;
        int rate = modelRate(dialect, format);
        this.toModel = rate == format.sampleRate() ? null : new Resampler(format.sampleRate(), rate);
    }

    /** The rate of the audio the model hears and speaks: the call's on the phone (μ-law) and for Grok. */
    static int modelRate(Dialect dialect, AudioFormat format) {
        return format.encoding() == AudioFormat.Encoding.MULAW || dialect == Dialect.GROK ? format.sampleRate()
                : OPENAI_PCM_RATE;
    }

    /** The session for a node: its instructions and functions, the call's audio format both ways, server VAD. */
    static JsonObject session(Dialect dialect, AudioFormat format, SpeechToSpeech.Setup setup, Voice voice,
            boolean withVoice) {
        return switch (dialect) {
            case OPENAI, AZURE -> session(format, setup, voice, withVoice);
            case AZURE_PREVIEW -> previewSession(format, setup, voice, withVoice);
            case GROK -> grokSession(format, setup, voice, withVoice);
        };
    }

    private static JsonArray tools(SpeechToSpeech.Setup setup) {
        JsonArray tools = new JsonArray();
        for (FunctionSpec f : setup.functions()) {
            tools.add(new JsonObject().put("type", "function").put("name", f.name())
                    .put("description", f.description() == null ? "" : f.description())
                    .put("parameters", new JsonObject(f.parameters())));
        }
        return tools;
    }

    /** GA's audio format object: {@code audio/pcmu}, or {@code audio/pcm} at the model's rate. */
    private static JsonObject wireFormat(int rate, AudioFormat format) {
        return format.encoding() == AudioFormat.Encoding.MULAW ? new JsonObject().put("type", "audio/pcmu")
                : new JsonObject().put("type", "audio/pcm").put("rate", rate);
    }

    private static JsonObject vad(SpeechToSpeech.Setup setup, boolean responseControls) {
        JsonObject vad = new JsonObject().put("type", "server_vad").put("threshold", VAD_THRESHOLD)
                .put("prefix_padding_ms", PREFIX_PADDING_MS).put("silence_duration_ms", SILENCE_MS);
        return responseControls ? vad.put("create_response", true).put("interrupt_response", setup.interruptible())
                : vad;
    }

    /** GA's session (OpenAI's and Azure's v1). */
    private static JsonObject session(AudioFormat format, SpeechToSpeech.Setup setup, Voice voice,
            boolean withVoice) {
        JsonArray tools = tools(setup);
        JsonObject transcription = new JsonObject().put("model", voice.transcriptionModel);
        if (voice.language != null && !voice.language.isBlank()) {
            transcription.put("language", voice.language);
        }
        JsonObject wire = wireFormat(OPENAI_PCM_RATE, format);
        JsonObject output = new JsonObject().put("format", wire.copy());
        if (withVoice) { // a voice cannot change once the model has spoken: it is set once
            output.put("voice", voice.voice);
        }
        return new JsonObject().put("type", "session.update").put("session", new JsonObject()
                .put("type", "realtime")
                .put("output_modalities", new JsonArray().add("audio"))
                .put("instructions", setup.instructions())
                .put("tools", tools)
                .put("tool_choice", "auto")
                .put("audio", new JsonObject()
                        .put("input", new JsonObject()
                                .put("format", wire)
                                .put("transcription", transcription)
                                .put("turn_detection", vad(setup, true)))
                        .put("output", output)));
    }

    /** The preview protocol's session (OpenAI's beta shape), as Azure's date api-versions take it. */
    private static JsonObject previewSession(AudioFormat format, SpeechToSpeech.Setup setup, Voice voice,
            boolean withVoice) {
        String wire = format.encoding() == AudioFormat.Encoding.MULAW ? "g711_ulaw" : "pcm16";
        JsonObject transcription = new JsonObject().put("model", voice.transcriptionModel);
        if (voice.language != null && !voice.language.isBlank()) {
            transcription.put("language", voice.language);
        }
        JsonObject session = new JsonObject()
                .put("modalities", new JsonArray().add("audio").add("text"))
                .put("instructions", setup.instructions())
                .put("input_audio_format", wire)
                .put("output_audio_format", wire)
                .put("input_audio_transcription", transcription)
                .put("turn_detection", vad(setup, true))
                .put("tools", tools(setup))
                .put("tool_choice", "auto");
        if (withVoice) {
            session.put("voice", voice.voice);
        }
        return new JsonObject().put("type", "session.update").put("session", session);
    }

    /** Grok's session: the voice and turn detection at the top, PCM at the call's rate. */
    private static JsonObject grokSession(AudioFormat format, SpeechToSpeech.Setup setup, Voice voice,
            boolean withVoice) {
        JsonObject transcription = new JsonObject();
        if (voice.language != null && !voice.language.isBlank()) {
            transcription.put("language_hint", voice.language);
        }
        JsonObject wire = wireFormat(format.sampleRate(), format);
        JsonObject session = new JsonObject()
                .put("instructions", setup.instructions())
                .put("turn_detection", vad(setup, false))
                .put("audio", new JsonObject()
                        .put("input", new JsonObject().put("format", wire).put("transcription", transcription))
                        .put("output", new JsonObject().put("format", wire.copy())))
                .put("tools", tools(setup));
        if (withVoice) {
            session.put("voice", voice.voice);
        }
        return new JsonObject().put("type", "session.update").put("session", session);
    }

    synchronized void connected(WebSocket ws) {
        if (closed) {
            ws.close();
            return;
        }
        socket = ws;
        ws.textMessageHandler(this::message);
        ws.closeHandler(v -> {
            boolean wasOpen;
            synchronized (this) {
                wasOpen = !closed;
                closed = true;
            }
            if (wasOpen) {
                listener.failed(dialect.display + " closed the session (" + ws.closeStatusCode() + " "
                        + ws.closeReason() + ")");
            }
        });
        ws.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "openai realtime: {0}", e.toString()));
        while (!held.isEmpty()) {
            ws.writeTextMessage(held.pollFirst());
        }
        heldAppends = 0;
    }

    void refused(String message) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        listener.failed(message);
    }

    private void message(String text) {
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        switch (json.getString("type", "")) {
            case "input_audio_buffer.speech_started" -> listener.speechStarted();
            case "input_audio_buffer.speech_stopped" -> listener.speechStopped(json.getString("item_id"));
            case "conversation.item.input_audio_transcription.completed" ->
                    listener.heard(json.getString("item_id"), json.getString("transcript", ""));
            case "response.created" -> {
                synchronized (this) {
                    fromModel = null; // a cancelled response's tail is not carried into the next
                    carry = -1;
                }
                listener.responseStarted(json.getJsonObject("response", new JsonObject()).getString("id"));
            }
            case "response.output_audio.delta", "response.audio.delta" -> listener.audio(
                    json.getString("response_id"), json.getString("item_id"),
                    fromModel(Base64.getDecoder().decode(json.getString("delta", ""))));
            case "response.output_audio_transcript.delta", "response.audio_transcript.delta" ->
                    listener.transcript(json.getString("response_id"), json.getString("delta", ""));
            case "response.done" -> listener.responseDone(response(json.getJsonObject("response", new JsonObject())));
            case "error" -> {
                JsonObject error = json.getJsonObject("error", new JsonObject());
                listener.warning(error.getString("message", "an error") + (error.getString("code") == null ? ""
                        : " (" + error.getString("code") + ")"));
            }
            default -> {
                // session.created/updated, committed, item events, rate limits: nothing to do
            }
        }
    }

    /** The model's audio in the call's format: μ-law as it is, PCM resampled to the call's rate. */
    private synchronized byte[] fromModel(byte[] audio) {
        int rate = modelRate(dialect, format);
        if (rate == format.sampleRate()) {
            return audio;
        }
        byte[] bytes = audio;
        if (carry >= 0) {
            bytes = new byte[audio.length + 1];
            bytes[0] = (byte) carry;
            System.arraycopy(audio, 0, bytes, 1, audio.length);
            carry = -1;
        }
        if (bytes.length % 2 == 1) {
            carry = bytes[bytes.length - 1] & 0xFF;
            bytes = Arrays.copyOf(bytes, bytes.length - 1);
        }
        if (fromModel == null) {
            fromModel = new Resampler(rate, format.sampleRate());
        }
        return Pcm16.bytes(fromModel.process(Pcm16.samples(bytes)));
    }

    /** A finished response: the transcript of its audio, its function calls, its usage. */
    static SpeechToSpeech.Response response(JsonObject response) {
        StringBuilder text = new StringBuilder();
        List<ToolCall> calls = new ArrayList<>();
        JsonArray output = response.getJsonArray("output", new JsonArray());
        for (int i = 0; i < output.size(); i++) {
            JsonObject item = output.getJsonObject(i);
            if ("function_call".equals(item.getString("type"))) {
                calls.add(new ToolCall(item.getString("call_id"), item.getString("name", ""),
                        ChatCompletions.arguments(item.getValue("arguments"))));
            } else if ("message".equals(item.getString("type"))) {
                JsonArray content = item.getJsonArray("content", new JsonArray());
                for (int j = 0; j < content.size(); j++) {
                    JsonObject part = content.getJsonObject(j);
                    String said = part.getString("transcript", part.getString("text"));
                    if (said != null && !said.isBlank()) {
                        text.append(text.isEmpty() ? "" : " ").append(said.strip());
                    }
                }
            }
        }
        JsonObject usage = response.getJsonObject("usage", new JsonObject());
        long in = usage.getLong("input_tokens", 0L);
        long out = usage.getLong("output_tokens", 0L);
        return new SpeechToSpeech.Response(response.getString("id", ""), response.getString("status", "completed"),
                text.toString(), calls, new TokenUsage(in, out, usage.getLong("total_tokens", in + out)));
    }

    private void send(JsonObject message) {
        send(message.encode(), false);
    }

    private synchronized void send(String message, boolean append) {
        if (closed) {
            return;
        }
        if (socket != null) {
            if (!append || !socket.writeQueueFull()) { // a congested socket loses audio, never control
                socket.writeTextMessage(message);
            }
            return;
        }
        if (append) {
            if (heldAppends >= HOLD_APPENDS) {
                return;
            }
            heldAppends++;
        }
        held.addLast(message);
    }

    @Override
    public void configure(SpeechToSpeech.Setup setup) {
        boolean withVoice;
        synchronized (this) {
            withVoice = !voiceSent;
            voiceSent = true;
        }
        send(session(dialect, format, setup, voice, withVoice));
    }

    @Override
    public void audio(byte[] frame) {
        String message;
        synchronized (this) {
            if (closed) {
                return;
            }
            bytes += frame.length;
            pending.writeBytes(toModel == null ? frame : Pcm16.bytes(toModel.process(Pcm16.samples(frame))));
            if (++pendingFrames < FRAMES_PER_APPEND) {
                return;
            }
            message = new JsonObject().put("type", "input_audio_buffer.append")
                    .put("audio", Base64.getEncoder().encodeToString(pending.toByteArray())).encode();
            pending.reset();
            pendingFrames = 0;
        }
        send(message, true);
    }

    @Override
    public void respond(String instructions) {
        JsonObject create = new JsonObject().put("type", "response.create");
        if (instructions != null) {
            create.put("response", new JsonObject().put("instructions", instructions));
        }
        send(create);
    }

    @Override
    public void answer(String callId, String output) {
        send(new JsonObject().put("type", "conversation.item.create").put("item", new JsonObject()
                .put("type", "function_call_output").put("call_id", callId).put("output", output)));
    }

    @Override
    public void said(String text) {
        send(new JsonObject().put("type", "conversation.item.create").put("item", new JsonObject()
                .put("type", "message").put("role", "assistant").put("content", new JsonArray()
                        .add(new JsonObject().put("type", dialect == Dialect.AZURE_PREVIEW ? "text" : "output_text")
                                .put("text", text)))));
    }

    @Override
    public void truncate(String itemId, long audioEndMs) {
        send(new JsonObject().put("type", "conversation.item.truncate").put("item_id", itemId)
                .put("content_index", 0).put("audio_end_ms", audioEndMs));
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
