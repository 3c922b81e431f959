package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.conversation.ModelDelta;
import dev.voiceagent.application.conversation.ModelStreamBrokenException;
import dev.voiceagent.application.conversation.ToolRunner;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.RecordedPrompts;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.AgentEngine.Step;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.voice.HeardText;
import dev.voiceagent.domain.voice.SpeakableText;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How the pipeline's answers are spoken (LiveKit's generation): the model's streamed words cut into sentences as they
 * are written, each sentence an utterance of the voice ({@link TextToSpeech}, one warm stream per call), the engine's
 * own words (a greeting, a tool's last words) and recordings (a transition's recorded speech) each in its place, and a
 * short filler over a slow tool. The voice's audio reaches the answer's {@link Speech} through the call's loop. A model
 * or voice that stops answering mid-turn is a provider that failed. A model or a voice that failed for good (its
 * adapter's retries spent, or silent past its wait) is replaced by the next one the configuration names: the answer is
 * asked again (or continued after what was said) of the next model, and the sentences not yet heard whole are said
 * again by the next voice. On the call's loop only.
 */
final class Generation {

    /** What the caller hears while a slow tool runs. */
    static final String FILLER = "One moment, please.";
    static final Duration FILLER_AFTER = Duration.ofSeconds(1);
    /** How long the model may take to its first words, and a voice to a sentence's first audio, before they failed. */
    static final Duration MODEL_WAIT = Duration.ofSeconds(8);
    static final Duration VOICE_WAIT = Duration.ofSeconds(5);
    /** How many times one answer's broken stream is continued (or, before any sentence, asked again). */
    static final int MAX_CONTINUATIONS = 2;
    /** What the model is told when its answer broke off and it goes on. */
    static final String CONTINUE = "Your previous reply was cut off by a technical problem after the words above,"
            + " which the caller heard. Continue it from exactly where it stopped, without repeating anything already"
            + " said and without mentioning the interruption.";

    private final CallLoop loop;
    private final CallLog log;
    private final Playback playback;
    private final LanguageModel model;
    private final Providers<ModelEndpoint, TokenUsage> llms;
    private final Providers<Answering.Voice, Long> voices;
    private final RecordedSpeech recorded;
    private final Consumer<Answer> resume;
    private final Consumer<String> failed;
    private TextToSpeech.Stream tts;
    /** Which voice {@link #tts} is. */
    private int ttsAt;
    /** Characters spoken by the voices the call left behind. */
    private long charactersBefore;

    /**
     * @param resume the model's reply or a tool's result went into the answer's engine turn: the engine goes on
     * @param failed a provider failed mid-call (the message starts with its stage)
     */
    Generation(CallLoop loop, CallLog log, VoiceMetrics metrics, Playback playback, Answering answering,
            Consumer<Answer> resume, Consumer<String> failed) {
        this.loop = loop;
        this.log = log;
        this.playback = playback;
        this.model = answering.model();
        this.llms = new Providers<>("llm", answering.llms(), Answering::key, log, metrics, TokenUsage::plus);
        this.voices = new Providers<>("tts", answering.voices(), Answering.Voice::key, log, metrics, Long::sum);
        this.recorded = new RecordedSpeech(loop, log, playback, answering.prompts());
        this.resume = resume;
        this.failed = failed;
    }

    /** Opens the call's voice (kept warm for the call); a provider the runtime cannot speak to throws here. */
    void open() {
        tts = voices.current().open().apply(new VoiceEvents(voices.at()));
    }

    /** The model's name, for the answers' time to first byte. */
    String modelName() {
        return llms.current().model();
    }

    /** Asks the model for the engine's turn: its words are spoken sentence by sentence as they are written. */
    void ask(Answer a, Step.AskModel ask) {
        a.speech.latency.asked(loop.now());
        new Writing(a, ask.request()).start(ask.request());
    }

    /**
     * One answer as the model writes it: its words cut into sentences and spoken as they come. A provider asked again
     * after it failed before its first words (the adapter retries) has the caller hear a filler when the wait is long;
     * a stream that breaks after some sentences were spoken is continued by a fresh request that knows what was said
     * (the sentence it was writing is dropped and said again whole), so nothing is repeated or cut in the transcript.
     */
    final class Writing {
        private final Answer a;
        private final ModelRequest request;
        /** The sentences handed to the voice, in order. */
        private final StringBuilder spoken = new StringBuilder();
        private SpeakableText chunker = new SpeakableText();
        private boolean wrote;
        private int continued;
        private boolean filled;

        Writing(Answer a, ModelRequest request) {
            this.a = a;
            this.request = request;
        }

        void start(ModelRequest asked) {
            a.writing = this;
            a.modelSilentSince = loop.now();
            a.stream = model.stream(llms.current(), asked).subscribe().with(
                    delta -> loop.execute(() -> delta(delta)),
                    failure -> loop.execute(() -> failure(failure)));
        }

        private void delta(ModelDelta delta) {
            if (!playing(a)) {
                return;
            }
            a.modelSilentSince = null;
            switch (delta) {
                case ModelDelta.Text text -> {
                    a.speech.latency.firstText(loop.now());
                    wrote = true;
                    chunker.append(text.delta()).forEach(this::say);
                }
                case ModelDelta.Done done -> {
                    chunker.finish().forEach(this::say);
                    ModelReply reply = done.reply();
                    if (!wrote && reply.text() != null && !reply.text().isBlank()) {
                        sayAll(a, reply.text()); // a provider that gave the text only at the end
                    }
                    a.writing = null;
                    ModelReply whole = continued == 0 || spoken.isEmpty() ? reply
                            : new ModelReply(spoken.toString(), reply.toolCalls(), reply.usage()); // what was said in all
                    a.turn.accept(whole);
                    a.outputsSeen = a.turn.outputs().size();
                    resume.accept(a);
                }
                case ModelDelta.Retrying retrying -> {
                    a.modelSilentSince = loop.now(); // the wait for the retried request starts over
                    if (!filled && retrying.after().compareTo(FILLER_AFTER) > 0 && a.speech.nothingQueued()) {
                        filled = true;
                        Generation.this.say(a, FILLER);
                    }
                }
            }
        }

        private void say(String sentence) {
            spoken.append(spoken.isEmpty() ? "" : " ").append(sentence.strip());
            Generation.this.say(a, sentence);
        }

        private void failure(Throwable failure) {
            if (!playing(a)) {
                return;
            }
            if (failure instanceof ModelStreamBrokenException && continued < MAX_CONTINUATIONS) {
                continued++;
                log.add(FeedbackEvent.PipelineError.warning("language model: " + failure.getMessage()
                        + (spoken.isEmpty() ? "; asked again" : "; continued after what was said")));
                again();
                return;
            }
            if (!switched(failure.getMessage())) {
                a.writing = null;
                failed.accept("language model: " + failure.getMessage());
            }
        }

        /**
         * The model failed for good: the next one the configuration names writes the answer (asked again, or on from
         * what was said); false when none is left.
         */
        boolean switched(String why) {
            if (!llms.next(why, null)) {
                return false;
            }
            if (a.stream != null) {
                a.stream.cancel();
            }
            continued = 0;
            again();
            return true;
        }

        /** Asked again, or on from what was said: the sentence it was writing is written again, whole. */
        private void again() {
            chunker = new SpeakableText();
            wrote = !spoken.isEmpty();
            start(spoken.isEmpty() ? request : continuation());
        }

        /** The request again, with what was said as the assistant's words so far and the instruction to go on. */
        private ModelRequest continuation() {
            List<ChatMessage> messages = new ArrayList<>(request.messages());
            messages.add(ChatMessage.assistant(spoken.toString(), List.of()));
            messages.add(ChatMessage.system(CONTINUE));
            return new ModelRequest(messages, request.functions());
        }
    }

    /**
     * Speaks what the engine said that the model did not stream (a greeting, a tool's last words), and plays the
     * recordings it named (a transition's speech of type audio), each in its place.
     */
    void sayNewOutputs(Answer a) {
        List<String> outputs = a.turn.outputs();
        List<AgentEngine.Recorded> recordings = a.turn.recordings();
        for (int i = a.outputsSeen; i <= outputs.size(); i++) {
            while (a.recordingsSeen < recordings.size() && recordings.get(a.recordingsSeen).at() <= i) {
                recorded.play(a, recordings.get(a.recordingsSeen++).recordingId());
            }
            if (i < outputs.size()) {
                sayAll(a, outputs.get(i));
            }
        }
        a.outputsSeen = outputs.size();
    }

    /** A recorded greeting opens the call: its audio is the answer's first segment. */
    void greet(Answer a, RecordedPrompts.Prompt prompt) {
        recorded.greet(a, prompt);
    }

    /** Says a text sentence by sentence (the first is heard sooner). */
    void sayAll(Answer a, String text) {
        SpeakableText chunker = new SpeakableText();
        chunker.append(text).forEach(s -> say(a, s));
        chunker.finish().forEach(s -> say(a, s));
    }

    /**
     * Says a line as one utterance of the voice; written while the agent is held, the voice is asked for it only once
     * it resumes (a turn that cuts it spends nothing on it).
     */
    void say(Answer a, String sentence) {
        Speech.Segment segment = a.speech.add(a.nextSegment('u'), sentence, loop.now(), false);
        if (playback.held() && playing(a)) {
            segment.defer(true, loop.now());
        } else {
            tts.speak(segment.id, sentence);
        }
    }

    /** The held agent resumed: the voice is asked for the sentences written meanwhile. */
    void resumed(Answer a) {
        for (Speech.Segment s : a.speech.segments()) {
            if (s.deferred()) {
                s.defer(false, loop.now());
                tts.speak(s.id, s.text());
            }
        }
    }

    /**
     * Runs a tool the engine called; its result (or its failure, as the result) goes into the turn. A tool still
     * running after {@link #FILLER_AFTER} with nothing playing has the caller hear a short filler line.
     */
    void run(Answer a, Step.RunTool tool, ToolRunner tools) {
        AutoCloseable filler = fillerAfter(a);
        tools.run(a.turn, tool).subscribe().with(
                done -> loop.execute(() -> {
                    Timers.close(filler);
                    resume.accept(a);
                }),
                failed -> loop.execute(() -> {
                    Timers.close(filler);
                    a.turn.acceptToolResult(tool.call().id(), "The tool failed: " + failed.getMessage());
                    resume.accept(a);
                }));
    }

    private AutoCloseable fillerAfter(Answer a) {
        AutoCloseable[] timer = new AutoCloseable[1];
        timer[0] = loop.every(FILLER_AFTER, () -> {
            Timers.close(timer[0]);
            if (playing(a) && a.speech.nothingQueued()) {
                say(a, FILLER);
            }
        });
        return timer[0];
    }

    /** The answer is cut or abandoned: the model stops writing and the voice stops speaking its sentences. */
    void cancel(Answer a) {
        if (a.stream != null) {
            a.stream.cancel();
        }
        if (tts != null) {
            a.speech.segments().forEach(s -> tts.cancel(s.id));
        }
    }

    /**
     * A provider that stopped answering mid-turn (the model's first words, a sentence's first audio) is a provider
     * that failed: the caller hears the fallback line rather than silence until the idle rule. The failure, or null.
     */
    String stalled(Answer a, Instant now) {
        if (a.modelSilentSince != null && Duration.between(a.modelSilentSince, now).compareTo(MODEL_WAIT) > 0) {
            String why = "no answer within " + MODEL_WAIT.toSeconds() + " s";
            return a.writing != null && a.writing.switched(why) ? null : "language model: " + why;
        }
        Speech.Segment head = a.speech.first(); // the others wait for it
        if (head != null && !head.heard() && !head.deferred()
                && Duration.between(head.askedAt(), now).compareTo(VOICE_WAIT) > 0) {
            String why = "no audio within " + VOICE_WAIT.toSeconds() + " s";
            return voices.hasNext() && voiceFailed(why) ? null : "text-to-speech: " + why;
        }
        return null;
    }

    /**
     * The voice failed for good: the next one the configuration names says again, in order, every sentence of the
     * answer not yet heard whole (what of its head the caller already heard is not played twice); false when no voice
     * is left or none of those left can be opened.
     */
    private boolean voiceFailed(String message) {
        TextToSpeech.Stream old = tts;
        Long used = old.characters();
        old.close();
        String why = message;
        while (voices.next(why, used)) {
            used = null; // one that cannot be opened spoke nothing
            try {
                tts = voices.current().open().apply(new VoiceEvents(voices.at()));
            } catch (RuntimeException e) {
                why = e.getMessage();
                continue;
            }
            ttsAt = voices.at();
            charactersBefore += old.characters();
            Speech speech = playback.current();
            if (speech != null) {
                for (Speech.Segment segment : speech.segments()) {
                    if (Answer.utterance(segment)) {
                        speech.restart(segment, loop.now());
                        tts.speak(segment.id, segment.text());
                    }
                }
            }
            return true;
        }
        return false;
    }

    /** Asks the call's current language model for one whole answer (a summary of older turns), not spoken. */
    Uni<ModelReply> summarize(ModelRequest request) {
        return model.complete(llms.current(), request);
    }

        /** Characters spoken (usage), by every voice the call used. */
    long characters() {
        return charactersBefore + (tts == null ? 0 : tts.characters());
    }

    /** Characters the fallback voices spoke, by usage key. */
    Map<String, Long> fallbackCharacters() {
        return voices.served(tts == null || ttsAt != voices.at() ? null : tts.characters());
    }

    /** A turn's tokens, counted to the model that finished it when that is a fallback. */
    void used(TokenUsage tokens) {
        llms.serve(tokens);
    }

    /** Tokens the fallback models used, by usage key. */
    Map<String, TokenUsage> fallbackTokens() {
        return llms.served(null);
    }

    void close() {
        if (tts != null) {
            tts.close();
        }
    }

    /** Whether the answer is still the one playing (not cut, replaced, or ended with the call). */
    private boolean playing(Answer a) {
        return a.speech == playback.current();
    }

    /** The segment of the speech playing, or null (a cut answer's late audio). */
    private Speech.Segment segment(String id) {
        Speech s = playback.current();
        return s == null ? null : s.segment(id);
    }

    private boolean live(Speech.Segment segment) {
        return segment(segment.id) == segment;
    }

    /** The voice's events, moved to the call's loop and routed to the answer's segments. */
    private final class VoiceEvents implements TextToSpeech.Listener {

        /** Which of the call's voices this one is: a voice the call left behind is not heard. */
        private final int which;

        VoiceEvents(int which) {
            this.which = which;
        }

        /** The answer's segment of this voice's utterance, or null (a cancelled answer's, or a voice left behind). */
        private Speech.Segment segment(String utterance) {
            return which == voices.at() ? Generation.this.segment(utterance) : null;
        }

        @Override
        public void audio(String utterance, byte[] audio) {
            loop.execute(() -> {
                Speech.Segment segment = segment(utterance);
                if (segment != null) { // else a cancelled answer's late audio
                    playback.current().latency.firstAudio(loop.now());
                    segment.audio(audio);
                    playback.pump();
                }
            });
        }

        @Override
        public void words(String utterance, List<HeardText.Word> words) {
            loop.execute(() -> {
                Speech.Segment segment = segment(utterance);
                if (segment != null) {
                    segment.words(words);
                }
            });
        }

        @Override
        public void done(String utterance) {
            loop.execute(() -> {
                Speech.Segment segment = segment(utterance);
                if (segment != null) {
                    segment.done();
                    playback.pump();
                }
            });
        }

        @Override
        public void restart(String utterance) {
            loop.execute(() -> {
                Speech.Segment segment = segment(utterance);
                if (segment != null) {
                    playback.current().restart(segment, loop.now());
                }
            });
        }

        @Override
        public void failed(String message) {
            loop.execute(() -> {
                if (which == voices.at() && !voiceFailed(message)) {
                    Generation.this.failed.accept("text-to-speech: " + message);
                }
            });
        }
    }
}
