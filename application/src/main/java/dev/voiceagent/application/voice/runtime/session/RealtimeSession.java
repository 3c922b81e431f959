package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.conversation.ToolRunner;
import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.application.voice.runtime.RecordedPrompts;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.Framer;
import dev.voiceagent.domain.conversation.AgentEngine.Step;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.voice.HeardText;
import dev.voiceagent.domain.voice.Playout;
import dev.voiceagent.domain.voice.TurnRules;
import dev.voiceagent.domain.voice.TurnTaking;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One call on a speech-to-speech model ({@link SpeechToSpeech}, OpenAI Realtime): the model hears the caller, decides
 * when a turn ended and answers in audio, while the {@link AgentEngine} keeps the graph: the node's instructions and
 * functions go to the model at the start and at every transition, its function calls are run as text chat runs them
 * (transitions, extraction, tools, end and transfer), and the next response is asked for with their results. The
 * model's audio is framed and paced to the carrier with marks as the pipeline's is, so a barge-in clears the carrier
 * and truncates the model's item at what the caller heard. Everything runs on the call's {@link CallLoop}.
 */
public final class RealtimeSession implements MediaInput {

    /** How a line is said word for word (a greeting, a transition's speech, a tool's last words). */
    static final String SAY_EXACTLY = "Say exactly the following, word for word, in the conversation's language,"
            + " and nothing else: ";
    /** The caller's words before the model's transcript of them arrived (or when it never does). */
    static final String NOT_TRANSCRIBED = "(not transcribed)";
    static final Duration TICK = Duration.ofMillis(20);
    /** How soon a response asked for by an answer cut short must start to be recognised as that one. */
    static final Duration ORPHAN_WAIT = Duration.ofSeconds(2);
    static final int FRAME_MS = 20;

    /** Everything a session works with. */
    public record Parts(CallLoop loop, MediaChannel media,
            Function<SpeechToSpeech.Listener, SpeechToSpeech.Stream> model, AgentEngine engine,
            ToolRunner tools, TurnRules rules, CallRecorder.Recording recording, VoiceMetrics metrics,
            Function<String, Uni<RecordedPrompts.Prompt>> prompts) {
    }

    /** One agent turn: the engine's turn (none for an idle prompt), the responses it took, how far its audio got. */
    private final class Answer {
        final AgentEngine.Turn turn;
        /** The caller's turn it answers (the model's item), and where its words go in the conversation. */
        final String userItem;
        final int userIndex;
        final Framer framer = new Framer(frameBytes);
        final Deque<byte[]> out = new ArrayDeque<>();
        final List<HeardText.Sentence> sentences = new ArrayList<>();
        /** The response being played and its spoken item; whether one was asked for and has not started. */
        String responseId;
        String itemId;
        long itemStartMs;
        int recordingsSeen;
        boolean requested;
        /** The model answered the caller's turn by itself: the engine's first request is already being answered. */
        boolean answeredByModel;
        long queuedMs;
        long responseStartMs;
        final StringBuilder text = new StringBuilder();
        boolean finished;
        boolean endMarked;
        boolean speaking;
        String endCall;
        /** What the engine said that the model must say (a transition's speech, a tool's last words). */
        String preface;
        int outputsSeen;
        Instant askedAt;

        Answer(AgentEngine.Turn turn, String userItem, int userIndex) {
            this.turn = turn;
            this.userItem = userItem;
            this.userIndex = userIndex;
        }

        boolean responding() {
            return requested || responseId != null;
        }
    }

    private final Parts parts;
    private final SpeechToSpeech.Stream model;
    private final CallLoop loop;
    private final MediaChannel media;
    private final Consumer<VoiceSession.Ended> onEnd;
    private final Playout playout = Playout.standard();
    private final int frameBytes;
    private final byte[] silentFrame;
    private final CallLog log;
    /** The agent's frames sent to the carrier and not yet played (the recording's right channel). */
    private final Deque<byte[]> playing = new ArrayDeque<>();
    /** The caller's turns as the model transcribed them, and where each went in the conversation. */
    private final Map<String, String> transcripts = new HashMap<>();
    private final Map<String, Integer> userIndexes = new HashMap<>();
    private ConversationState conversation;
    private TokenUsage tokens = TokenUsage.ZERO;
    private SpeechToSpeech.Setup configured;
    private Answer answer;
    private AutoCloseable ticker;
    private Instant connectedAt;
    private Instant speechStartedAt;
    private Instant speechStoppedAt;
    private Instant quietSince;
    private String lastUserItem;
    /** Responses asked for by answers the caller cut short before they started: not the caller's turn when they do. */
    private int orphanedRequests;
    private Instant orphanedAt;
    private boolean callerSpeaking;
    private int idlePrompts;
    private long spokenCharacters;
    private String failure;
    private boolean ended;

    public RealtimeSession(Parts parts, ConversationState start, Consumer<VoiceSession.Ended> onEnd) {
        this.parts = parts;
        this.loop = parts.loop();
        this.media = parts.media();
        this.onEnd = onEnd;
        this.conversation = start;
        this.frameBytes = media.format().bytes(FRAME_MS);
        this.silentFrame = new byte[frameBytes];
        java.util.Arrays.fill(silentFrame, silence());
        this.log = new CallLog(loop, media);
        this.model = parts.model().apply(listener()); // its events reach this session through the loop
    }

    /** The model's events, moved to the call's loop. */
    private SpeechToSpeech.Listener listener() {
        return new SpeechToSpeech.Listener() {
            @Override
            public void speechStarted() {
                loop.execute(RealtimeSession.this::speechStarted);
            }

            @Override
            public void speechStopped(String itemId) {
                loop.execute(() -> RealtimeSession.this.speechStopped(itemId));
            }

            @Override
            public void heard(String itemId, String transcript) {
                loop.execute(() -> RealtimeSession.this.heard(itemId, transcript));
            }

            @Override
            public void responseStarted(String responseId) {
                loop.execute(() -> RealtimeSession.this.responseStarted(responseId));
            }

            @Override
            public void audio(String responseId, String itemId, byte[] audio) {
                loop.execute(() -> RealtimeSession.this.audio(responseId, itemId, audio));
            }

            @Override
            public void transcript(String responseId, String delta) {
                loop.execute(() -> RealtimeSession.this.transcript(responseId, delta));
            }

            @Override
            public void responseDone(SpeechToSpeech.Response response) {
                loop.execute(() -> RealtimeSession.this.responseDone(response));
            }

            @Override
            public void warning(String message) {
                loop.execute(() -> {
                    if (!ended) {
                        log.add("rtf-pipeline-error", Map.of("message", "speech-to-speech: " + message,
                                "fatal", false));
                    }
                });
            }

            @Override
            public void failed(String message) {
                loop.execute(() -> RealtimeSession.this.failed("speech-to-speech: " + message));
            }
        };
    }

    // ---- the carrier (on the loop) ----

    /** The media connected: the node's setup goes to the model and the agent opens the call. */
    public void connected() {
        connectedAt = loop.now();
        ticker = loop.every(TICK, this::tick);
        configure(conversation.currentNodeId(), conversation.gathered());
        open();
    }

    @Override
    public void audio(byte[] frame) {
        if (ended) {
            return;
        }
        model.audio(frame);
        if (parts.recording() != null) {
            byte[] agent = playing.pollFirst();
            parts.recording().frame(frame, agent == null ? silentFrame : agent);
        }
    }

    @Override
    public void dtmf(String digit) {
        if (!ended) { // a speech-to-speech model hears no keys: kept in the log only
            log.add("rtf-user-dtmf", Map.of("digit", digit));
        }
    }

    @Override
    public void marked(String name) {
        if (!ended && playout.marked(name, loop.now())) {
            pump();
        }
    }

    @Override
    public void stopped() {
        end(TurnTaking.USER_HANGUP);
    }

    public boolean isEnded() {
        return ended;
    }

    // ---- the model (on the loop) ----

    private void speechStarted() {
        if (ended) {
            return;
        }
        speechStartedAt = loop.now();
        callerSpeaking = true;
        idlePrompts = 0;
        Answer a = answer;
        if (a != null && (a.turn == null || a.turn.interruptible()) && (a.speaking || a.responding())) {
            interrupt();
        }
    }

    private void speechStopped(String itemId) {
        if (ended) {
            return;
        }
        speechStoppedAt = loop.now();
        callerSpeaking = false;
        lastUserItem = itemId;
    }

    private void heard(String itemId, String transcript) {
        if (ended || transcript == null || transcript.isBlank()) {
            return;
        }
        transcripts.put(itemId, transcript.strip());
        log.add("rtf-user-transcription", Map.of("text", transcript.strip(), "final", true));
        Integer index = userIndexes.get(itemId);
        Answer a = answer;
        boolean inTurn = a != null && itemId.equals(a.userItem) && !a.finished;
        if (index != null && !inTurn) { // the turn was settled already: its words are put in now
            conversation = conversation.withUserText(index, transcript);
        }
    }

    private void responseStarted(String responseId) {
        if (ended) {
            return;
        }
        Answer a = answer;
        if (a != null && a.requested) {
            a.requested = false;
            a.responseId = responseId;
            a.responseStartMs = a.queuedMs;
            a.text.setLength(0);
            return;
        }
        if (orphanedRequests > 0 && Duration.between(orphanedAt, loop.now()).compareTo(ORPHAN_WAIT) < 0) {
            orphanedRequests--; // asked for by an answer since cut short: its audio has nowhere to go
            return;
        }
        orphanedRequests = 0; // (one the model refused never starts)
        // the model answers the caller's turn by itself: the engine's turn for it begins
        Answer previous = answer;
        if (conversation.ended()) {
            return;
        }
        String item = lastUserItem;
        lastUserItem = null;
        int index = conversation.messages().size();
        AgentEngine.Turn turn;
        try {
            turn = parts.engine().reply(conversation, transcripts.getOrDefault(item, NOT_TRANSCRIBED));
        } catch (RuntimeException limit) { // the turn limit: the conversation is over
            end(VoiceSession.PIPELINE_ERROR);
            return;
        }
        if (item != null) {
            userIndexes.put(item, index);
        }
        Answer next = new Answer(turn, item, index);
        if (previous != null) { // an answer the caller could not interrupt still plays first
            settle(previous);
            next.out.addAll(previous.out);
            next.queuedMs = previous.queuedMs;
        }
        next.responseId = responseId;
        next.responseStartMs = next.queuedMs;
        next.answeredByModel = true;
        answer = next;
        step(next);
    }

    private void transcript(String responseId, String delta) {
        Answer a = answer;
        if (!ended && a != null && responseId.equals(a.responseId)) {
            a.text.append(delta);
        }
    }

    private void audio(String responseId, String itemId, byte[] audio) {
        Answer a = answer;
        if (ended || a == null || !responseId.equals(a.responseId)) {
            return; // a cancelled response's late audio
        }
        if (!itemId.equals(a.itemId)) {
            a.itemId = itemId;
            a.itemStartMs = a.queuedMs;
        }
        for (byte[] frame : a.framer.push(audio)) {
            a.out.addLast(frame);
            a.queuedMs += FRAME_MS;
        }
        pump();
    }

    private void responseDone(SpeechToSpeech.Response response) {
        if (ended) {
            return;
        }
        Answer a = answer;
        if (a == null || !response.id().equals(a.responseId)) {
            tokens = tokens.plus(response.usage()); // a response the caller cut short: its tokens were spent
            return;
        }
        a.responseId = null;
        byte[] last = a.framer.flush(silence());
        if (last.length > 0) {
            a.out.addLast(last);
            a.queuedMs += FRAME_MS;
        }
        String text = response.text() == null || response.text().isBlank() ? a.text.toString() : response.text();
        if (a.queuedMs > a.responseStartMs && !text.isBlank()) {
            a.sentences.add(new HeardText.Sentence(text.strip(), a.responseStartMs, a.queuedMs,
                    HeardText.spread(text, a.queuedMs - a.responseStartMs)));
            spokenCharacters += text.strip().length();
        }
        if ("failed".equals(response.status())) {
            failed("speech-to-speech: the model's response failed");
            return;
        }
        if (a.turn == null || a.finished) { // a line said word for word: the engine's turn is already settled
            tokens = tokens.plus(response.usage());
            pump();
            return;
        }
        a.turn.accept(new ModelReply(text.isBlank() ? null : text, response.calls(), response.usage()));
        a.outputsSeen = a.turn.outputs().size();
        step(a);
    }

    // ---- the engine's turn ----

    /**
     * The agent opens the call: a pre-recorded greeting is played from its recording (the model is told it was said);
     * a text greeting is said word for word by the model; otherwise the model speaks first.
     */
    private void open() {
        java.util.Optional<String> recording = parts.engine().greetingRecording();
        if (recording.isEmpty()) {
            begin(parts.engine().open(conversation));
            return;
        }
        Answer waiting = new Answer(null, null, -1);
        waiting.finished = true;
        answer = waiting;
        parts.prompts().apply(recording.get()).subscribe().with(
                prompt -> loop.execute(() -> {
                    if (answer == waiting && !ended) {
                        Answer a = new Answer(parts.engine().openRecorded(conversation, prompt.transcript()), null,
                                -1);
                        answer = a;
                        for (byte[] frame : a.framer.push(prompt.audio())) {
                            a.out.addLast(frame);
                            a.queuedMs += FRAME_MS;
                        }
                        byte[] last = a.framer.flush(silence());
                        if (last.length > 0) {
                            a.out.addLast(last);
                            a.queuedMs += FRAME_MS;
                        }
                        a.sentences.add(new HeardText.Sentence(prompt.transcript(), 0, a.queuedMs,
                                HeardText.spread(prompt.transcript(), a.queuedMs)));
                        model.said(prompt.transcript());
                        log.add("rtf-bot-text", Map.of("text", prompt.transcript(), "recording", true));
                        step(a);
                    }
                }),
                failure -> loop.execute(() -> {
                    if (answer == waiting && !ended) {
                        log.add("rtf-pipeline-error", Map.of("message", "the greeting's recording "
                                + recording.get() + " cannot be played: " + failure.getMessage()));
                        answer = null;
                        begin(parts.engine().open(conversation));
                    }
                }));
    }

    private void begin(AgentEngine.Turn turn) {
        Answer a = new Answer(turn, null, -1);
        answer = a;
        step(a);
    }

    /** Runs the engine's turn on until it waits for the model or a tool, or finishes. */
    private void step(Answer a) {
        if (a != answer || ended) {
            return;
        }
        Step step = a.turn.next();
        List<String> outputs = a.turn.outputs();
        for (int i = a.outputsSeen; i < outputs.size(); i++) { // the engine's own words: the model says them
            a.preface = a.preface == null ? outputs.get(i) : a.preface + " " + outputs.get(i);
        }
        a.outputsSeen = outputs.size();
        for (; a.recordingsSeen < a.turn.recordings().size(); a.recordingsSeen++) {
            log.add("rtf-pipeline-error", Map.of("message", "the recorded transition speech "
                    + a.turn.recordings().get(a.recordingsSeen).recordingId() + " is not played on a"
                    + " speech-to-speech call", "fatal", false));
        }
        switch (step) {
            case Step.AskModel ask -> ask(a, ask);
            case Step.RunTool tool -> parts.tools().run(a.turn, tool).subscribe().with(
                    done -> loop.execute(() -> step(a)),
                    failed -> loop.execute(() -> {
                        a.turn.acceptToolResult(tool.call().id(), "The tool failed: " + failed.getMessage());
                        step(a);
                    }));
            case Step.Finished finished -> {
                a.finished = true;
                AgentEngine.TurnResult result = finished.result();
                conversation = result.state();
                if (a.userItem != null && transcripts.containsKey(a.userItem)) {
                    conversation = conversation.withUserText(a.userIndex, transcripts.get(a.userItem));
                }
                tokens = tokens.plus(result.usage());
                log.turn(a.userItem == null ? null : transcripts.get(a.userItem), result);
                a.endCall = result.state().ended() ? result.state().endReason() : null;
                configure(conversation.currentNodeId(), conversation.gathered());
                if (a.preface != null) { // a greeting, a tool's last words: said by the model, word for word
                    request(a, SAY_EXACTLY + quoted(a.preface));
                    a.preface = null;
                }
                pump();
            }
        }
    }

    /**
     * The engine asks the model: the model is already answering the caller's turn (its own response), or the node's
     * setup goes out if it changed (a transition), the function calls' results follow, and a response is asked for.
     */
    private void ask(Answer a, Step.AskModel ask) {
        a.askedAt = loop.now();
        if (a.answeredByModel) {
            a.answeredByModel = false;
            return;
        }
        List<ChatMessage> messages = ask.request().messages();
        String instructions = messages.isEmpty() ? "" : messages.getFirst().content();
        SpeechToSpeech.Setup setup = new SpeechToSpeech.Setup(instructions == null ? "" : instructions,
                ask.request().functions(), a.turn.interruptible());
        if (!setup.equals(configured)) {
            configured = setup;
            model.configure(setup);
        }
        int lastAssistant = -1;
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == ChatMessage.Role.ASSISTANT) {
                lastAssistant = i;
                break;
            }
        }
        for (int i = lastAssistant + 1; i < messages.size(); i++) {
            ChatMessage m = messages.get(i);
            if (lastAssistant >= 0 && m.role() == ChatMessage.Role.TOOL) {
                model.answer(m.toolCallId(), m.content());
            }
        }
        String preface = a.preface;
        a.preface = null;
        request(a, preface == null ? null : setup.instructions() + "\n\nBegin your reply by saying exactly: "
                + quoted(preface));
    }

    private void request(Answer a, String instructions) {
        a.requested = true;
        a.askedAt = loop.now();
        model.respond(instructions);
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\"", "'") + "\"";
    }

    /** The node's instructions and functions to the model, when they are not what it has already. */
    private void configure(String nodeId, Map<String, Object> gathered) {
        SpeechToSpeech.Setup setup = new SpeechToSpeech.Setup(parts.engine().systemPrompt(nodeId, gathered),
                parts.engine().functions(nodeId), parts.engine().interruptible(nodeId));
        if (!setup.equals(configured)) {
            configured = setup;
            model.configure(setup);
        }
    }

    /** An answer overtaken by the model's next one: what it said stands as said. */
    private void settle(Answer a) {
        if (a.turn != null && !a.finished) {
            String said = String.join(" ", a.sentences.stream().map(HeardText.Sentence::text).toList());
            conversation = conversation.cutShort(userText(a), said + (a.text.isEmpty() ? "" : " " + a.text));
        }
    }

    private String userText(Answer a) {
        return a.userItem == null ? null : transcripts.getOrDefault(a.userItem, NOT_TRANSCRIBED);
    }

    // ---- playing ----

    private void tick() {
        if (ended) {
            return;
        }
        pump();
        Instant now = loop.now();
        TurnRules rules = parts.rules();
        if (Duration.between(connectedAt, now).compareTo(rules.maxDuration()) > 0) {
            end(TurnTaking.CALL_DURATION);
            return;
        }
        Answer a = answer;
        if (a != null && a.requested && Duration.between(a.askedAt, now).compareTo(VoiceSession.MODEL_WAIT) > 0) {
            failed("speech-to-speech: no answer within " + VoiceSession.MODEL_WAIT.toSeconds() + " s");
            return;
        }
        if (a == null && !callerSpeaking && quietSince != null
                && Duration.between(quietSince, now).compareTo(rules.idle()) > 0) {
            if (idlePrompts >= rules.idlePrompts()) {
                end(TurnTaking.USER_IDLE);
                return;
            }
            idlePrompts++;
            quietSince = null;
            Answer prompt = new Answer(null, null, -1);
            prompt.finished = true;
            answer = prompt;
            request(prompt, SAY_EXACTLY + quoted(VoiceSession.IDLE_PROMPT));
            log.add("rtf-bot-text", Map.of("text", VoiceSession.IDLE_PROMPT));
        }
    }

    /** Moves the answer's audio to the carrier, no further ahead of the caller's ear than the playout allows. */
    private void pump() {
        Answer a = answer;
        if (a == null || ended) {
            return;
        }
        Instant now = loop.now();
        while (!a.out.isEmpty() && playout.roomMs(now) >= FRAME_MS) {
            byte[] frame = a.out.pollFirst();
            media.play(frame);
            playing.addLast(frame);
            playout.sent(FRAME_MS, now).ifPresent(media::mark);
            if (!a.speaking) {
                a.speaking = true;
                speaking(a, now);
            }
        }
        if (!a.finished || a.responding() || a.preface != null || !a.out.isEmpty()) {
            return;
        }
        if (!a.endMarked) {
            a.endMarked = true;
            playout.sentenceEnd().ifPresent(media::mark);
        }
        if (playout.allPlayed()) {
            playout.clear(now);
            answer = null;
            quietSince = now;
            if (a.endCall != null) {
                end(a.endCall);
            }
        }
    }

    private void speaking(Answer a, Instant now) {
        if (a.turn != null && a.userItem != null && speechStoppedAt != null) {
            parts.metrics().answered(Duration.between(speechStoppedAt, now));
            Map<String, Object> latency = new LinkedHashMap<>();
            latency.put("kind", "voice_latency_breakdown");
            latency.put("latency_seconds", Duration.between(speechStoppedAt, now).toMillis() / 1000.0);
            latency.put("user_stop_to_bot_started_ms", Duration.between(speechStoppedAt, now).toMillis());
            latency.put("speech_to_speech", true);
            log.add("rtf-latency-measured", latency);
        }
    }

    /**
     * The caller spoke over the agent: the carrier's queue is cleared, the model's item is truncated at what the
     * caller heard (the model itself cancels its response), and the conversation keeps what was heard.
     */
    private void interrupt() {
        Answer a = answer;
        answer = null;
        if (a.requested) {
            orphanedRequests++;
            orphanedAt = loop.now();
        }
        Instant now = loop.now();
        media.clear();
        playing.clear();
        long heardMs = playout.clear(now);
        if (a.itemId != null) { // audio_end_ms: what was played of the model's last spoken item
            model.truncate(a.itemId, Math.max(0, Math.min(heardMs, a.queuedMs) - a.itemStartMs));
        }
        List<HeardText.Sentence> said = new ArrayList<>(a.sentences);
        if (a.responseId != null && a.queuedMs > a.responseStartMs && !a.text.isEmpty()) {
            said.add(new HeardText.Sentence(a.text.toString().strip(), a.responseStartMs, Long.MAX_VALUE,
                    HeardText.spread(a.text.toString(), a.queuedMs - a.responseStartMs)));
        }
        String heard = HeardText.of(said, heardMs);
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("heard_text", heard);
        payload.put("heard_ms", heardMs);
        payload.put("speech_to_speech", true);
        log.add("rtf-interruption", payload);
        if (a.turn == null) {
            return; // an idle prompt, a greeting played from its recording before the engine's turn
        }
        if (a.finished) {
            conversation = conversation.interrupted(heard);
        } else {
            conversation = conversation.cutShort(userText(a), heard); // the caller's words at a.userIndex
        }
        configure(conversation.currentNodeId(), conversation.gathered()); // a transition cut short is undone
    }

    private void failed(String message) {
        if (ended) {
            return;
        }
        failure = message;
        parts.metrics().providerFailed("realtime");
        log.add("rtf-pipeline-error", Map.of("message", message));
        end(VoiceSession.PIPELINE_ERROR);
    }

    private void end(String reason) {
        if (ended) {
            return;
        }
        ended = true;
        try {
            if (ticker != null) {
                ticker.close();
            }
        } catch (Exception ignored) {
            // a loop's timer: nothing to release
        }
        model.close();
        if (parts.recording() != null) {
            while (!playing.isEmpty()) {
                parts.recording().frame(silentFrame, playing.pollFirst());
            }
        }
        log.ended(reason);
        if (!VoiceSession.TRANSFER.equals(reason)) {
            media.close(reason);
        }
        onEnd.accept(new VoiceSession.Ended(reason, conversation, tokens, model.seconds(), spokenCharacters,
                connectedAt, loop.now(), log.events(), failure));
    }

    private byte silence() {
        return media.format().encoding() == AudioFormat.Encoding.MULAW ? (byte) 0xFF : 0;
    }
}
