package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.conversation.ToolRunner;
import dev.voiceagent.application.voice.runtime.RecordedPrompts;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.AgentEngine.Step;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.voice.TurnRules;
import dev.voiceagent.domain.voice.TurnTaking;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One call on a speech-to-speech model ({@link SpeechToSpeech}, OpenAI Realtime): the model hears the caller, decides
 * when a turn ended and answers in audio, while the {@link AgentEngine} keeps the graph: the node's instructions and
 * functions go to the model at the start and at every transition, its function calls are run as text chat runs them
 * (transitions, extraction, tools, end and transfer), and the next response is asked for with their results. Each
 * response is a segment of the answer's {@link Speech}, played to the carrier with marks as the pipeline's sentences
 * are, so a barge-in clears the carrier and truncates the model's item at what the caller heard. Everything runs on
 * the call's loop.
 */
public final class SpeechToSpeechSession extends CallSession {

    /** The caller's words before the model's transcript of them arrived (or when it never does). */
    static final String NOT_TRANSCRIBED = "(not transcribed)";
    /** How soon a response asked for by an answer cut short must start to be recognised as that one. */
    static final Duration ORPHAN_WAIT = Duration.ofSeconds(2);
    /** How long a response asked for may take to start before the model failed. */
    static final Duration RESPONSE_WAIT = Duration.ofSeconds(8);

    /** Everything a session works with: the model (the session opens it with its listener), the agent, its rules. */
    public record Parts(CallLine line, Function<SpeechToSpeech.Listener, SpeechToSpeech.Stream> model,
            AgentEngine engine, ToolRunner tools, TurnRules rules,
            Function<String, Uni<RecordedPrompts.Prompt>> prompts) {
    }

    private final Parts parts;
    private final AgentEngine engine;
    /** The caller's turns as the model transcribed them, and where each went in the conversation. */
    private final Map<String, String> transcripts = new HashMap<>();
    private final Map<String, Integer> userIndexes = new HashMap<>();
    private final ModelSetup setup;
    private SpeechToSpeech.Stream model;
    private ConversationState conversation;
    private TokenUsage tokens = TokenUsage.ZERO;
    private Reply answer;
    private Instant speechStartedAt;
    private Instant speechStoppedAt;
    private Instant quietSince;
    private String lastUserItem;
    /** Responses asked for by answers the caller cut short before they started: not the caller's turn when they do. */
    private int orphanedRequests;
    private Instant orphanedAt;
    private boolean callerSpeaking;
    private int idlePrompts;
    private int responseSeq;
    private long spokenCharacters;

    public SpeechToSpeechSession(Parts parts, ConversationState start, Consumer<Ended> onEnd) {
        super(parts.line(), onEnd);
        this.parts = parts;
        this.engine = parts.engine();
        this.conversation = start;
        this.setup = new ModelSetup(engine);
        playback.listen(this::speaking, this::played);
    }

    // ---- the carrier (on the loop) ----

    /** The media connected: the model opens, the node's setup goes to it and the agent opens the call. */
    @Override
    public void connected() {
        model = parts.model().apply(OnLoop.speechToSpeech(loop, () -> ended, new ModelEvents()));
        setup.model(model);
        connectedAt = loop.now();
        startTicking();
        setup.node(conversation.currentNodeId(), conversation.gathered());
        open();
    }

    @Override
    public void audio(byte[] frame) {
        if (!ended) {
            model.audio(frame);
            recording.caller(frame);
        }
    }

    @Override
    public void dtmf(String digit) {
        if (!ended) { // a speech-to-speech model hears no keys: kept in the log only
            log.add(new FeedbackEvent.UserDtmf(digit));
        }
    }

    @Override
    public void stopped() {
        end(TurnTaking.USER_HANGUP);
    }

    private void startResponse(Reply a, String responseId) {
        a.responseId = responseId;
        a.response = a.speech.add("r" + ++responseSeq, "", loop.now(), true);
    }

    // ---- the engine's turn ----

    /**
     * The agent opens the call: a pre-recorded greeting is played from its recording (the model is told it was said);
     * a text greeting is said word for word by the model; otherwise the model speaks first.
     */
    private void open() {
        Optional<String> recording = engine.greetingRecording();
        if (recording.isEmpty()) {
            step(reply(engine.open(conversation), null, -1));
            return;
        }
        Reply waiting = reply(null, null, -1);
        waiting.finished = true;
        greet(recording.get(), parts.prompts(), () -> answer == waiting, prompt -> {
            Reply a = reply(engine.openRecorded(conversation, prompt.transcript()), null, -1);
            Speech.Segment greeting = a.speech.add("greeting", prompt.transcript(), loop.now(), true);
            greeting.audio(prompt.audio());
            greeting.done();
            model.said(prompt.transcript());
            log.add(new FeedbackEvent.BotText(prompt.transcript(), FeedbackEvent.Said.RECORDING));
            step(a);
        }, () -> step(reply(engine.open(conversation), null, -1)));
    }

    /** A new answer, now the one playing. */
    private Reply reply(AgentEngine.Turn turn, String userItem, int userIndex) {
        Reply a = new Reply(turn, userItem, userIndex, playback.speech());
        answer = a;
        playback.play(a.speech);
        return a;
    }

    /** Runs the engine's turn on until it waits for the model or a tool, or finishes. */
    private void step(Reply a) {
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
            log.add(FeedbackEvent.PipelineError.warning("the recorded transition speech "
                    + a.turn.recordings().get(a.recordingsSeen).recordingId() + " is not played on a"
                    + " speech-to-speech call"));
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
                log.turn(result);
                a.endCall = result.state().ended() ? result.state().endReason() : null;
                setup.node(conversation.currentNodeId(), conversation.gathered());
                if (a.preface != null) { // a greeting, a tool's last words: said by the model, word for word
                    request(a, ModelSetup.sayExactly(a.preface));
                    a.preface = null;
                }
                a.completeWhenDone();
                playback.pump();
            }
        }
    }

    /**
     * The engine asks the model: the model is already answering the caller's turn (its own response), or the node's
     * setup and the function calls' results go out and a response is asked for.
     */
    private void ask(Reply a, Step.AskModel ask) {
        a.askedAt = loop.now();
        if (a.answeredByModel) {
            a.answeredByModel = false;
            return;
        }
        String preface = a.preface;
        a.preface = null;
        request(a, setup.ask(ask.request(), a.turn.interruptible(), preface));
    }

    private void request(Reply a, String instructions) {
        a.requested = true;
        a.askedAt = loop.now();
        model.respond(instructions);
    }

    /** An answer overtaken by the model's next one: what it said stands as said. */
    private void settle(Reply a) {
        if (a.turn != null && !a.finished) {
            conversation = conversation.cutShort(userText(a), a.speech.said());
        }
    }

    private String userText(Reply a) {
        return a.userItem == null ? null : transcripts.getOrDefault(a.userItem, NOT_TRANSCRIBED);
    }

    // ---- playing ----

    @Override
    void tick() {
        if (ended) {
            return;
        }
        playback.pump();
        Instant now = loop.now();
        TurnRules rules = parts.rules();
        if (Duration.between(connectedAt, now).compareTo(rules.maxDuration()) > 0) {
            end(TurnTaking.CALL_DURATION);
            return;
        }
        Reply a = answer;
        if (a != null && a.requested && Duration.between(a.askedAt, now).compareTo(RESPONSE_WAIT) > 0) {
            failed("speech-to-speech: no answer within " + RESPONSE_WAIT.toSeconds() + " s");
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
            Reply prompt = reply(null, null, -1);
            prompt.finished = true;
            request(prompt, ModelSetup.sayExactly(VoiceSession.IDLE_PROMPT));
            log.add(new FeedbackEvent.BotText(VoiceSession.IDLE_PROMPT));
        }
    }

    /** An answer's first audio went to the caller: its latency, when it answers the caller. */
    private void speaking(Speech speech, Instant now) {
        Reply a = answer;
        if (a.turn != null && a.userItem != null && speechStoppedAt != null) {
            TurnLatency.reportSpeechToSpeech(speechStoppedAt, now, log, metrics);
        }
    }

    /** An answer was heard to its end. */
    private void played(Speech speech, Instant now) {
        Reply a = answer;
        answer = null;
        quietSince = now;
        if (a.endCall != null) {
            end(a.endCall);
        }
    }

    /**
     * The caller spoke over the agent: the carrier's queue is cleared, the model's item is truncated at what the
     * caller heard (the model itself cancels its response), and the conversation keeps what was heard.
     */
    private void interrupt() {
        Reply a = answer;
        answer = null;
        if (a.requested) {
            orphanedRequests++;
            orphanedAt = loop.now();
        }
        long heardMs = playback.cut();
        if (a.itemId != null) { // audio_end_ms: what was played of the model's last spoken item
            model.truncate(a.itemId, Math.max(0, Math.min(heardMs, a.speech.queuedMs()) - a.itemStartMs));
        }
        String heard = a.speech.heard(heardMs);
        log.add(new FeedbackEvent.Interruption(heard, heardMs, null, true));
        if (a.turn == null) {
            return; // an idle prompt, a greeting played from its recording before the engine's turn
        }
        if (a.finished) {
            conversation = conversation.interrupted(heard);
        } else {
            conversation = conversation.cutShort(userText(a), heard); // the caller's words at a.userIndex
        }
        setup.node(conversation.currentNodeId(), conversation.gathered()); // a transition cut short is undone
    }

    private void failed(String message) {
        if (ended) {
            return;
        }
        failure = message;
        metrics.providerFailed("realtime");
        log.add(FeedbackEvent.PipelineError.fatal(message));
        end(Ended.PIPELINE_ERROR);
    }

    @Override
    void release() {
        if (model != null) {
            model.close();
        }
    }

    @Override
    Ended ended(String reason, Instant at) {
        return new Ended(reason, conversation, tokens, model == null ? 0 : model.seconds(), spokenCharacters,
                connectedAt, at, log.events(), failure, log.endDetails());
    }

    /** The model's events (on the loop: {@link OnLoop}; none once the call ended). */
    private final class ModelEvents implements SpeechToSpeech.Listener {


        @Override
        public void speechStarted() {
            speechStartedAt = loop.now();
            callerSpeaking = true;
            idlePrompts = 0;
            Reply a = answer;
            if (a != null && (a.turn == null || a.turn.interruptible()) && (a.speech.speaking() || a.responding())) {
                interrupt();
            }
        }

        @Override
        public void speechStopped(String itemId) {
            speechStoppedAt = loop.now();
            callerSpeaking = false;
            lastUserItem = itemId;
        }

        @Override
        public void heard(String itemId, String transcript) {
            if (transcript == null || transcript.isBlank()) {
                return;
            }
            transcripts.put(itemId, transcript.strip());
            log.add(new FeedbackEvent.UserTranscription(transcript.strip(), true));
            Integer index = userIndexes.get(itemId);
            Reply a = answer;
            boolean inTurn = a != null && itemId.equals(a.userItem) && !a.finished;
            if (index != null && !inTurn) { // the turn was settled already: its words are put in now
                conversation = conversation.withUserText(index, transcript);
            }
        }

        @Override
        public void responseStarted(String responseId) {
            Reply a = answer;
            if (a != null && a.requested) {
                a.requested = false;
                startResponse(a, responseId);
                return;
            }
            if (orphanedRequests > 0 && Duration.between(orphanedAt, loop.now()).compareTo(ORPHAN_WAIT) < 0) {
                orphanedRequests--; // asked for by an answer since cut short: its audio has nowhere to go
                return;
            }
            orphanedRequests = 0; // (one the model refused never starts)
            if (conversation.ended()) {
                return;
            }
            // the model answers the caller's turn by itself: the engine's turn for it begins
            String item = lastUserItem;
            lastUserItem = null;
            int index = conversation.messages().size();
            AgentEngine.Turn turn;
            try {
                turn = engine.reply(conversation, transcripts.getOrDefault(item, NOT_TRANSCRIBED));
            } catch (RuntimeException limit) { // the turn limit: the conversation is over
                end(Ended.PIPELINE_ERROR);
                return;
            }
            if (item != null) {
                userIndexes.put(item, index);
            }
            Reply previous = answer;
            Reply next = reply(turn, item, index);
            if (previous != null) { // an answer the caller could not interrupt still plays first
                settle(previous);
                next.speech.after(previous.speech);
            }
            startResponse(next, responseId);
            next.answeredByModel = true;
            step(next);
        }

        @Override
        public void transcript(String responseId, String delta) {
            Reply a = answer;
            if (a != null && responseId.equals(a.responseId)) {
                a.response.appendText(delta);
            }
        }

        @Override
        public void audio(String responseId, String itemId, byte[] audio) {
            Reply a = answer;
            if (a == null || !responseId.equals(a.responseId)) {
                return; // a cancelled response's late audio
            }
            if (!itemId.equals(a.itemId)) {
                a.itemId = itemId;
                a.itemStartMs = a.speech.queuedMs();
            }
            a.response.audio(audio);
            playback.pump();
        }

        @Override
        public void responseDone(SpeechToSpeech.Response response) {
            Reply a = answer;
            if (a == null || !response.id().equals(a.responseId)) {
                tokens = tokens.plus(response.usage()); // a response the caller cut short: its tokens were spent
                return;
            }
            Speech.Segment segment = a.response;
            a.responseId = null;
            a.response = null;
            String text = response.text() == null || response.text().isBlank() ? segment.text() : response.text();
            segment.text(text.strip());
            segment.done();
            if (segment.heard() && !text.isBlank()) {
                spokenCharacters += text.strip().length();
            }
            if ("failed".equals(response.status())) {
                SpeechToSpeechSession.this.failed("speech-to-speech: the model's response failed");
                return;
            }
            if (a.turn == null || a.finished) { // a line said word for word: the engine's turn is already settled
                tokens = tokens.plus(response.usage());
                a.completeWhenDone();
                playback.pump();
                return;
            }
            a.turn.accept(new ModelReply(text.isBlank() ? null : text, response.calls(), response.usage()));
            a.outputsSeen = a.turn.outputs().size();
            step(a);
        }

        @Override
        public void warning(String message) {
            log.add(FeedbackEvent.PipelineError.warning("speech-to-speech: " + message));
        }

        @Override
        public void failed(String message) {
            SpeechToSpeechSession.this.failed("speech-to-speech: " + message);
        }
    }
}
