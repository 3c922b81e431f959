package dev.voiceagent.application.voice.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.conversation.ModelDelta;
import dev.voiceagent.application.conversation.ModelStreamBrokenException;
import dev.voiceagent.application.conversation.ModelUnavailableException;
import dev.voiceagent.application.conversation.ToolRunner;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.EnergyVoiceActivityDetector;
import dev.voiceagent.application.voice.runtime.RecordedPrompts;
import dev.voiceagent.application.voice.runtime.VoiceSessionFactory;
import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.application.voice.runtime.session.VoiceSession;
import dev.voiceagent.domain.audio.AmbientLoop;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.ContextCompaction;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.ToolCall;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.voice.CallSettings;
import dev.voiceagent.domain.voice.TurnTaking;
import dev.voiceagent.domain.voice.VoiceActivity;
import dev.voiceagent.domain.voice.VoicemailDetection;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A whole call on a virtual clock: a carrier that plays audio in real time and echoes marks, a recognizer and a voice
 * scripted by the test, a streamed model, and the caller's speech as loud and silent μ-law frames.
 */
class VoiceSessionTest {

    // ---- the world around the session ----

    /** The call's loop on a virtual clock: tasks run in order, timers fire as time advances. */
    static final class VirtualLoop implements CallLoop {
        Instant now = Instant.parse("2026-11-26T10:00:00Z");
        private final Deque<Runnable> queue = new ArrayDeque<>();
        private final PriorityQueue<Object[]> timed = new PriorityQueue<>(
                Comparator.comparing((Object[] t) -> (Instant) t[0]).thenComparing(t -> (Long) t[2]));
        private final List<Object[]> periodic = new ArrayList<>();
        private long seq;

        @Override
        public Instant now() {
            return now;
        }

        @Override
        public void execute(Runnable task) {
            queue.addLast(task);
        }

        void at(Duration after, Runnable task) {
            timed.add(new Object[] {now.plus(after), task, seq++});
        }

        @Override
        public AutoCloseable every(Duration period, Runnable task) {
            Object[] timer = {period, task, now.plus(period), true};
            periodic.add(timer);
            return () -> timer[3] = false;
        }

        void drain() {
            while (!queue.isEmpty()) {
                queue.pollFirst().run();
            }
        }

        /** Time passes in 5 ms steps; due timers and tasks run on the way. */
        void advance(Duration d) {
            Instant end = now.plus(d);
            drain();
            while (now.isBefore(end)) {
                now = now.plusMillis(5);
                while (!timed.isEmpty() && !((Instant) timed.peek()[0]).isAfter(now)) {
                    ((Runnable) timed.poll()[1]).run();
                    drain();
                }
                for (Object[] p : List.copyOf(periodic)) {
                    if ((boolean) p[3] && !((Instant) p[2]).isAfter(now)) {
                        p[2] = ((Instant) p[2]).plus((Duration) p[0]);
                        ((Runnable) p[1]).run();
                        drain();
                    }
                }
            }
        }
    }

    /** A carrier that plays what it is sent in real time and echoes each mark when the audio before it played. */
    static final class Carrier implements MediaChannel {
        final VirtualLoop loop;
        MediaInput session;
        Instant playedUntil;
        final List<Object[]> marks = new ArrayList<>();
        /** The live events, as a browser gets them. */
        final List<String> live = new ArrayList<>();

        @Override
        public void feedback(Map<String, Object> event) {
            live.add(String.valueOf(event.get("type")));
        }

        int frames;
        int clears;
        String closed;
        final List<Instant> firstFrameAfterClear = new ArrayList<>();

        Carrier(VirtualLoop loop) {
            this.loop = loop;
            playedUntil = loop.now;
        }

        @Override
        public AudioFormat format() {
            return AudioFormat.MULAW_8K;
        }

        /** Each frame's mean sample, in the order sent. */
        final List<Double> means = new ArrayList<>();
        /** The longest the carrier had nothing to play, after the first frame. */
        long longestGapMs;

        @Override
        public void play(byte[] frame) {
            assertThat(frame).hasSize(160);
            assertThat(closed).isNull();
            if (frames > 0 && playedUntil.isBefore(loop.now)) {
                longestGapMs = Math.max(longestGapMs, Duration.between(playedUntil, loop.now).toMillis());
            }
            frames++;
            means.add(Arrays.stream(toInts(G711.decode(frame))).average().orElse(0));
            Instant start = playedUntil.isAfter(loop.now) ? playedUntil : loop.now;
            playedUntil = start.plusMillis(20);
        }

        private static int[] toInts(short[] samples) {
            int[] out = new int[samples.length];
            for (int i = 0; i < samples.length; i++) {
                out[i] = samples[i];
            }
            return out;
        }

        @Override
        public void mark(String name) {
            Object[] mark = {name, playedUntil.isAfter(loop.now) ? playedUntil : loop.now};
            marks.add(mark);
            loop.at(Duration.between(loop.now, (Instant) mark[1]), () -> {
                if (marks.remove(mark)) {
                    session.marked(name);
                }
            });
        }

        @Override
        public void clear() {
            clears++;
            playedUntil = loop.now;
            List<Object[]> pending = List.copyOf(marks);
            marks.clear();
            pending.forEach(m -> loop.execute(() -> session.marked((String) m[0]))); // Twilio echoes them at once
        }

        @Override
        public void close(String reason) {
            closed = reason;
        }

        /** Milliseconds of agent audio sent so far. */
        long sentMs() {
            return frames * 20L;
        }
    }

    /**
     * A recognizer whose finals the test scripts: on Finalize, it settles the next line after 100 ms, or says it has
     * nothing (an empty final, as Deepgram's) when no line waits.
     */
    final class Recognizer implements SpeechToText.Stream {
        final Deque<String> lines = new ArrayDeque<>();
        /** What the session opened it with. */
        SpeechToText.Listener listener;
        int finalizes;
        int frames;
        boolean closed;
        /** It never answers a Finalize (a recognizer about to fail). */
        boolean deaf;

        @Override
        public void audio(byte[] frame) {
            frames++;
        }

        @Override
        public void finalizeNow() {
            finalizes++;
            if (deaf) {
                return;
            }
            String line = lines.isEmpty() ? "" : lines.pollFirst();
            loop.at(Duration.ofMillis(100), () -> listener.transcript(line, true));
        }

        @Override
        public double seconds() {
            return frames * 0.02;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** A voice that answers each sentence after 100 ms with 60 ms of audio per word, in 40 ms chunks. */
    final class Voice implements TextToSpeech.Stream {
        final List<String> spoken = new ArrayList<>();
        /** What the session opened it with. */
        TextToSpeech.Listener listener;
        final List<String> cancelled = new ArrayList<>();
        long characters;
        boolean mute;
        /** A sentence whose connection drops half way once: it is spoken again from its start, with a restart. */
        String dropsOnce;
        /** A sentence after which the voice fails for good (its retries spent): half its audio, then the failure. */
        String failsAt;

        @Override
        public void speak(String utterance, String text) {
            spoken.add(text);
            characters += text.length();
            if (mute) {
                return;
            }
            int ms = 60 * text.split("\\s+").length;
            if (text.equals(failsAt)) {
                for (int at = 0; at < ms / 2; at += 40) {
                    int length = Math.min(40, ms - at) * 8;
                    loop.at(Duration.ofMillis(100 + at / 4), () -> listener.audio(utterance, new byte[length]));
                }
                loop.at(Duration.ofMillis(100 + ms / 8 + 1), () -> listener.failed("HTTP 500 (retries spent)"));
                return;
            }
            if (text.equals(dropsOnce)) {
                dropsOnce = null;
                for (int at = 0; at < ms / 2; at += 40) { // half of its audio, then the drop
                    int length = Math.min(40, ms - at) * 8;
                    loop.at(Duration.ofMillis(100 + at / 4), () -> listener.audio(utterance, new byte[length]));
                }
                loop.at(Duration.ofMillis(100 + ms / 8 + 1), () -> {
                    listener.restart(utterance);
                    for (int at = 0; at < ms; at += 40) {
                        listener.audio(utterance, new byte[Math.min(40, ms - at) * 8]);
                    }
                    listener.done(utterance);
                });
                return;
            }
            for (int at = 0; at < ms; at += 40) {
                int length = Math.min(40, ms - at) * 8;
                loop.at(Duration.ofMillis(100 + at / 4), () -> {
                    if (!cancelled.contains(utterance)) {
                        listener.audio(utterance, new byte[length]);
                    }
                });
            }
            loop.at(Duration.ofMillis(100 + ms / 4 + 1), () -> {
                if (!cancelled.contains(utterance)) {
                    listener.done(utterance);
                }
            });
        }

        @Override
        public void cancel(String utterance) {
            cancelled.add(utterance);
        }

        @Override
        public long characters() {
            return characters;
        }

        @Override
        public void close() {
        }
    }

    /** A model that streams each scripted reply's text word by word, 50 ms apart, then the reply. */
    final class Model implements LanguageModel {
        final Deque<Function<ModelRequest, Multi<ModelDelta>>> replies = new ArrayDeque<>();
        final List<ModelRequest> asked = new ArrayList<>();
        /** Which model each answer was asked of. */
        final List<String> askedOf = new ArrayList<>();

        /** What the voicemail classifier is asked (the session streams every answer; only it completes). */
        final List<ModelRequest> classified = new ArrayList<>();
        final Deque<String> verdicts = new ArrayDeque<>();
        Duration classifierDelay = Duration.ofMillis(150);

        @Override
        public Uni<ModelReply> complete(ModelEndpoint endpoint, ModelRequest request) {
            classified.add(request);
            String verdict = verdicts.removeFirst();
            return Uni.createFrom().emitter(e -> loop.at(classifierDelay, () -> e.complete(
                    ModelReply.text(verdict))));
        }

        @Override
        public Multi<ModelDelta> stream(ModelEndpoint endpoint, ModelRequest request) {
            asked.add(request);
            askedOf.add(endpoint.provider());
            return replies.removeFirst().apply(request);
        }

        void says(ModelReply reply) {
            replies.add(request -> Multi.createFrom().emitter(emitter -> {
                String[] words = reply.text() == null ? new String[0] : reply.text().split(" ");
                for (int i = 0; i < words.length; i++) {
                    String delta = (i == 0 ? "" : " ") + words[i];
                    loop.at(Duration.ofMillis(50L * (i + 1)), () -> emitter.emit(new ModelDelta.Text(delta)));
                }
                loop.at(Duration.ofMillis(50L * (words.length + 1)), () -> {
                    emitter.emit(new ModelDelta.Done(reply));
                    emitter.complete();
                });
            }));
        }
    }

    final VirtualLoop loop = new VirtualLoop();
    final Carrier carrier = new Carrier(loop);

    /** Streams {@code text} word by word, then breaks (as the adapter says a stream broken after some output). */
    void modelBreaksAfter(String text) {
        model.replies.add(request -> Multi.createFrom().emitter(emitter -> {
            String[] words = text.split(" ");
            for (int i = 0; i < words.length; i++) {
                String delta = (i == 0 ? "" : " ") + words[i];
                loop.at(Duration.ofMillis(50L * (i + 1)), () -> emitter.emit(new ModelDelta.Text(delta)));
            }
            loop.at(Duration.ofMillis(50L * (words.length + 1)), () -> emitter.fail(new ModelStreamBrokenException(
                    "The language model failed: the stream broke", text)));
        }));
    }

    /** Says the adapter retries after {@code after}, then streams {@code reply}. */
    void modelRetriesThenSays(Duration after, ModelReply reply) {
        model.replies.add(request -> Multi.createFrom().emitter(emitter -> {
            emitter.emit(new ModelDelta.Retrying(2, after, "HTTP 503"));
            loop.at(after, () -> {
                emitter.emit(new ModelDelta.Text(reply.text()));
                emitter.emit(new ModelDelta.Done(reply));
                emitter.complete();
            });
        }));
    }
    final Recognizer recognizer = new Recognizer();
    final Voice voice = new Voice();
    final Model model = new Model();
    /** The configuration's fallbacks, when a test names them: a second recognizer, voice and language model. */
    Recognizer backupRecognizer;
    /** The call's turn-taking: the runtime's rules, turn start by voice activity, unless a test sets another. */
    TurnTaking turns = new TurnTaking(VoiceSessionFactory.RULES);
    Voice backupVoice;
    ModelEndpoint backupLlm;
    /** The sound under the agent's voice: none unless a test gives one. */
    AmbientLoop ambience;
    /** The recording's stereo frames: the caller's and the agent's, 20 ms each. */
    final List<byte[][]> recorded = new ArrayList<>();
    final CallRecorder.Recording recording = new CallRecorder.Recording() {
        @Override
        public void frame(byte[] caller, byte[] agent) {
            recorded.add(new byte[][] {caller.clone(), agent.clone()});
        }

        @Override
        public Uni<String> finish() {
            return Uni.createFrom().item("recordings/1/runs/1.wav");
        }
    };
    int callerFrames;

    /** Frames of the recording's agent side with audio in them (the fake voice's audio is zero bytes, not silence). */
    long agentFramesRecorded() {
        return recorded.stream().filter(f -> f[1][0] != (byte) 0xFF).count();
    }
    VoiceSession session;
    Ended ended;
    /** Voicemail detection: off unless a test turns it on. */
    Voicemail voicemail;
    /** The organization's recordings as the session asks for them: none unless a test gives one. */
    Function<String, Uni<RecordedPrompts.Prompt>> prompts = id -> Uni.createFrom().failure(
            new IllegalStateException("no recording " + id));

    static WorkflowDefinition definition(String greeting, boolean interruptible) {
        Map<String, Object> start = new LinkedHashMap<>(Map.of("name", "Start", "prompt", "Help with orders.",
                "allow_interrupt", interruptible));
        if (greeting != null) {
            start.put("greeting", greeting);
        }
        return WorkflowDefinition.of(Map.of(
                "nodes", List.of(Map.of("id", "1", "type", "startCall", "data", start),
                        Map.of("id", "2", "type", "endCall", "data", Map.of("name", "Goodbye", "prompt",
                                "Say goodbye."))),
                "edges", List.of(Map.of("id", "e1", "source", "1", "target", "2", "data", Map.of("label", "Done",
                        "condition", "The caller is done")))));
    }

    /** The session's parts: this test's carrier, recognizer, voice and model; energy voice activity in 20 ms windows. */
    VoiceSession.Parts parts(AgentEngine engine, ModelEndpoint llm, ToolRunner tools, Voicemail detection) {
        List<Listening.Recognizer> recognizers = new ArrayList<>();
        for (Recognizer r : backupRecognizer == null ? List.of(recognizer) : List.of(recognizer, backupRecognizer)) {
            recognizers.add(new Listening.Recognizer(r == recognizer ? "deepgram/nova-3" : "openai/gpt-4o-transcribe",
                    listener -> {
                        r.listener = listener;
                        return r;
                    }));
        }
        List<Answering.Voice> voices = new ArrayList<>();
        for (Voice v : backupVoice == null ? List.of(voice) : List.of(voice, backupVoice)) {
            voices.add(new Answering.Voice(v == voice ? "elevenlabs/eleven_flash_v2_5" : "cartesia/sonic-2",
                    listener -> {
                        v.listener = listener;
                        return v;
                    }));
        }
        return new VoiceSession.Parts(new CallLine(loop, carrier, recording, VoiceMetrics.NONE, ambience),
                new Listening(recognizers, new EnergyVoiceActivityDetector(), VoiceActivity.Params.DEFAULT),
                new Answering(engine, model, backupLlm == null ? List.of(llm) : List.of(llm, backupLlm), tools, voices,
                        prompts), turns, detection);
    }

    void start(WorkflowDefinition definition) {
        AgentEngine engine = new AgentEngine(definition, Map.of());
        ModelEndpoint llm = new ModelEndpoint(ModelService.LLM, "openai", "gpt-4o-mini", null, List.of("k"), Map.of(),
                false);
        session = new VoiceSession(parts(engine, llm, ToolRunner.NONE, voicemail), engine.initialState(),
                e -> ended = e, Moves.NONE);
        carrier.session = session;
        session.connected();
        loop.drain();
    }

    /** The caller speaks for {@code ms} (a loud 440 Hz tone, 20 ms frames in real time). */
    void callerSpeaks(int ms) {
        callerSounds(ms, 12_000);
    }

    /** A 440 Hz tone of this amplitude for {@code ms}, in real time. */
    void callerSounds(int ms, int amplitude) {
        for (int t = 0; t < ms; t += 20) {
            short[] samples = new short[160];
            for (int i = 0; i < 160; i++) {
                samples[i] = (short) (amplitude * Math.sin(2 * Math.PI * 440 * (t * 8 + i) / 8_000.0));
            }
            callerFrames += session.isEnded() ? 0 : 1;
            session.audio(G711.encode(samples));
            loop.advance(Duration.ofMillis(20));
        }
    }

    /** The caller is silent for {@code ms} (silent frames keep coming, as on a phone line). */
    void callerSilent(int ms) {
        byte[] silence = new byte[160];
        Arrays.fill(silence, (byte) 0xFF);
        for (int t = 0; t < ms; t += 20) {
            callerFrames += session.isEnded() ? 0 : 1;
            session.audio(silence);
            loop.advance(Duration.ofMillis(20));
        }
    }

    // ---- the calls ----

    @Test
    void aWholeCallGreetsAnswersMovesOnAndHangsUpOnlyAfterTheGoodbyeWasHeard() {
        start(definition("Hello, this is Acme. How can I help?", true));
        callerSilent(1_500);
        assertThat(voice.spoken).containsExactly("Hello, this is Acme.", "How can I help?");
        assertThat(carrier.sentMs()).isGreaterThanOrEqualTo(60 * 8);

        recognizer.lines.add("Where is my order?");
        model.says(ModelReply.text("It ships today. Anything else?"));
        callerSpeaks(800);
        callerSilent(1_500);
        assertThat(recognizer.finalizes).isEqualTo(1);
        assertThat(model.asked).hasSize(1);
        assertThat(model.asked.getFirst().messages()).extracting(ChatMessage::content)
                .endsWith("Hello, this is Acme. How can I help?", "Where is my order?");
        // the first sentence went to the voice before the model finished writing the second
        assertThat(voice.spoken).containsSequence("It ships today.", "Anything else?");

        recognizer.lines.add("No, that's all.");
        model.says(ModelReply.calls(new ToolCall("c1", "done", Map.of())));
        model.says(ModelReply.text("Thank you, goodbye."));
        callerSpeaks(600);
        callerSilent(400);
        int framesBeforeGoodbye = carrier.frames;
        loop.advance(Duration.ofMillis(300));
        assertThat(carrier.closed).as("not closed while the goodbye plays").isNull();
        callerSilent(2_000);
        assertThat(carrier.frames).isGreaterThan(framesBeforeGoodbye);
        assertThat(carrier.closed).isEqualTo(AgentEngine.END_CALL_NODE);
        assertThat(carrier.marks).as("every mark came back before the hang-up").isEmpty();
        assertThat(carrier.clears).isZero();

        assertThat(ended.reason()).isEqualTo(AgentEngine.END_CALL_NODE);
        assertThat(ended.conversation().currentNodeId()).isEqualTo("2");
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content).containsSubsequence(
                "Where is my order?", "It ships today. Anything else?", "No, that's all.", "Thank you, goodbye.");
        assertThat(ended.spokenCharacters()).isEqualTo(voice.characters);
        assertThat(ended.speechSeconds()).isGreaterThan(4);
        assertThat(ended.events()).extracting(e -> e.get("type")).contains("rtf-user-transcription", "rtf-bot-text",
                "rtf-node-transition", "rtf-function-call-start", "rtf-latency-measured");
        assertThat(recognizer.closed).isTrue();
        // the recording: one stereo frame per 20 ms of the call (and the goodbye's tail), the agent's side every frame
        // it played
        assertThat(recorded).hasSizeBetween(callerFrames, callerFrames + 10);
        assertThat(agentFramesRecorded()).isEqualTo(carrier.frames);
    }

    /** Voicemail detection on the next call, with these settings (enabled added). */
    void voicemailDetection(Map<String, Object> settings) {
        Map<String, Object> on = new LinkedHashMap<>(settings);
        on.put("enabled", true);
        voicemail = new Voicemail(VoicemailDetection.of(Map.of("voicemail_detection", on)),
                new ModelEndpoint(ModelService.LLM, "openai", "gpt-4.1", null, List.of("k"), Map.of(), false));
    }

    static final String GREETING = "Hi, you have reached John. Please leave a message after the tone.";

    @Test
    void aVoicemailGreetingIsClassifiedBeforeItIsAnsweredAndTheCallHangsUpAsVoicemailDetected() {
        voicemailDetection(Map.of());
        start(definition("Hello, this is Acme.", true));
        callerSilent(1_200);
        recognizer.lines.add(GREETING);
        model.verdicts.add("VOICEMAIL");
        callerSpeaks(1_500);
        callerSilent(1_000);

        assertThat(ended).isNotNull();
        assertThat(ended.reason()).isEqualTo(VoicemailDetection.DISPOSITION);
        assertThat(carrier.closed).isEqualTo(VoicemailDetection.DISPOSITION);
        assertThat(model.asked).as("the greeting was never answered").isEmpty();
        assertThat(model.classified).singleElement().satisfies(q -> {
            assertThat(q.messages().getFirst().content()).isEqualTo(VoicemailDetection.DEFAULT_PROMPT);
            assertThat(q.messages().getLast().content()).isEqualTo("Text: " + GREETING);
        });
        assertThat(ended.events()).filteredOn(e -> "rtf-voicemail-detected".equals(e.get("type"))).singleElement()
                .satisfies(e -> assertThat(e.get("payload")).isEqualTo(Map.of("detected_by", "classifier", "action",
                        "hang_up")));
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content).endsWith(GREETING);
    }

    @Test
    void aPersonIsAnsweredAsUsualOnceTheClassifierSaysSo() {
        voicemailDetection(Map.of());
        start(definition("Hello, this is Acme.", true));
        callerSilent(1_200);
        recognizer.lines.add("Hello? Who is this?");
        model.verdicts.add("CONVERSATION");
        model.says(ModelReply.text("This is Acme about your order."));
        callerSpeaks(800);
        callerSilent(1_500);

        assertThat(ended).isNull();
        assertThat(model.classified).hasSize(1);
        assertThat(model.asked).singleElement().satisfies(q -> assertThat(q.messages().getLast().content())
                .isEqualTo("Hello? Who is this?"));
        assertThat(voice.spoken).contains("This is Acme about your order.");
        // later turns are not classified again
        recognizer.lines.add("Okay.");
        model.says(ModelReply.text("Great."));
        callerSpeaks(500);
        callerSilent(1_200);
        assertThat(model.classified).hasSize(1);
        assertThat(model.asked).hasSize(2);
    }

    @Test
    void aMessageIsLeftAfterTheGreetingAndItsBeepWithoutBeingCutAndTheCallEndsAsVoicemail() {
        String message = "Hi, this is Acme about your order. Please call us back.";
        voicemailDetection(Map.of("action", "leave_message", "message", message));
        start(definition("Hello, this is Acme.", true));
        callerSilent(1_200);
        recognizer.lines.add(GREETING);
        model.verdicts.add("VOICEMAIL");
        callerSpeaks(1_500);
        callerSilent(500); // classified meanwhile
        String first = "Hi, this is Acme about your order.";
        assertThat(voice.spoken).doesNotContain(first);
        callerSpeaks(300); // the beep
        callerSilent(600);
        assertThat(voice.spoken).as("not before the line was quiet for a second").doesNotContain(first);
        callerSilent(600);
        assertThat(voice.spoken).endsWith(first, "Please call us back.");
        callerSpeaks(400); // a noise on the line while the message plays: no barge-in
        callerSilent(3_000);

        assertThat(carrier.clears).isZero();
        assertThat(ended.reason()).isEqualTo(VoicemailDetection.DISPOSITION);
        assertThat(carrier.marks).as("closed after the message was heard").isEmpty();
        assertThat(model.asked).isEmpty();
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content).endsWith(GREETING, message);
        assertThat(ended.events()).filteredOn(e -> "rtf-bot-text".equals(e.get("type"))).last()
                .satisfies(e -> assertThat(e.get("payload")).isEqualTo(Map.of("text", message, "voicemail", true)));
    }

    @Test
    void aClassifierThatDoesNotAnswerInTimeLeavesThePersonAnswered() {
        voicemailDetection(Map.of());
        start(definition("Hello, this is Acme.", true));
        callerSilent(1_200);
        recognizer.lines.add("Hello?");
        model.verdicts.add("NEVER"); // answered after 10 s
        model.classifierDelay = Duration.ofSeconds(10);
        model.says(ModelReply.text("Hi, this is Acme."));
        callerSpeaks(500);
        callerSilent(2_500);
        assertThat(model.asked).as("not yet: the classifier has 3 s").isEmpty();
        callerSilent(1_500);
        assertThat(model.asked).hasSize(1);
        assertThat(voice.spoken).contains("Hi, this is Acme.");
        assertThat(ended).isNull();
    }

    @Test
    void aCalleeWhoTalksOnPastTheLongSpeechLimitIsAVoicemailWithoutAsking() {
        voicemailDetection(Map.of("long_speech_timeout", 3.0));
        start(definition("Hello, this is Acme.", true));
        callerSilent(1_200);
        callerSpeaks(3_500);
        assertThat(ended).isNotNull();
        assertThat(ended.reason()).isEqualTo(VoicemailDetection.DISPOSITION);
        assertThat(model.classified).isEmpty();
        assertThat(ended.events()).filteredOn(e -> "rtf-voicemail-detected".equals(e.get("type"))).singleElement()
                .satisfies(e -> assertThat(e.get("payload")).isEqualTo(Map.of("detected_by", "long_speech", "action",
                        "hang_up")));
    }

    static WorkflowDefinition recordedGreeting(String recordingId) {
        Map<String, Object> start = new LinkedHashMap<>(Map.of("name", "Start", "prompt", "Help with orders.",
                "allow_interrupt", true, "greeting_type", "audio", "greeting_recording_id", recordingId));
        return WorkflowDefinition.of(Map.of("nodes", List.of(Map.of("id", "1", "type", "startCall", "data", start)),
                "edges", List.of()));
    }

    @Test
    void aPreRecordedGreetingPlaysItsAudioAndTheConversationSaysItsTranscript() {
        byte[] audio = new byte[160 * 40]; // 800 ms, a recognisable pattern, not silence
        for (int i = 0; i < audio.length; i++) {
            audio[i] = (byte) (i % 7 == 0 ? 0x10 : 0x20);
        }
        List<String> asked = new ArrayList<>();
        prompts = id -> {
            asked.add(id);
            return Uni.createFrom().item(new RecordedPrompts.Prompt("Welcome to Acme Dental.", audio));
        };
        start(recordedGreeting("welcome-1"));
        callerSilent(1_200);
        assertThat(asked).containsExactly("welcome-1");
        assertThat(voice.spoken).as("nothing synthesized: the recording plays").isEmpty();
        assertThat(carrier.frames).isEqualTo(40);
        assertThat(model.asked).isEmpty();

        recognizer.lines.add("Where is my order?");
        model.says(ModelReply.text("It ships today."));
        callerSpeaks(800);
        callerSilent(1_500);
        assertThat(model.asked.getFirst().messages()).extracting(ChatMessage::content)
                .endsWith("Welcome to Acme Dental.", "Where is my order?");
    }

    @Test
    void aTransitionsRecordedSpeechPlaysInItsPlaceBetweenTheModelsWords() {
        byte[] audio = new byte[160 * 25]; // 500 ms, a recognisable pattern
        for (int i = 0; i < audio.length; i++) {
            audio[i] = (byte) (i % 7 == 0 ? 0x10 : 0x20);
        }
        List<String> asked = new ArrayList<>();
        prompts = id -> {
            asked.add(id);
            return "hold-on".equals(id) ? Uni.createFrom().item(new RecordedPrompts.Prompt("One moment please.", audio))
                    : Uni.createFrom().failure(new IllegalStateException("no recording " + id));
        };
        Map<String, Object> edge = Map.of("label", "Next", "condition", "The caller wants help",
                "transition_speech_type", "audio", "transition_speech_recording_id", "hold-on");
        start(WorkflowDefinition.of(Map.of("nodes", List.of(
                        Map.of("id", "1", "type", "startCall", "data", Map.of("name", "Start", "prompt", "Greet.",
                                "greeting", "Hello.", "allow_interrupt", true)),
                        Map.of("id", "2", "type", "agentNode", "data", Map.of("name", "Help", "prompt", "Help.",
                                "allow_interrupt", true))),
                "edges", List.of(Map.of("id", "e1", "source", "1", "target", "2", "data", edge)))));
        callerSilent(1_200);
        int greetingFrames = carrier.frames;
        recognizer.lines.add("I need help.");
        model.says(ModelReply.calls(new ToolCall("c1", "next", Map.of())));
        model.says(ModelReply.text("How can I help?"));
        callerSpeaks(600);
        callerSilent(2_500);

        assertThat(asked).containsExactly("hold-on");
        assertThat(voice.spoken).containsExactly("Hello.", "How can I help?");
        assertThat(carrier.frames - greetingFrames).as("the recording's 25 frames, then the answer's")
                .isGreaterThan(25);
        // the recording's frames, then the synthesized answer's (the fake voice's audio is zeros)
        int lastRecorded = -1;
        int lastSynthesized = -1;
        for (int i = 0; i < recorded.size(); i++) {
            byte first = recorded.get(i)[1][0];
            lastRecorded = first == 0x20 || first == 0x10 ? i : lastRecorded;
            lastSynthesized = first == 0 ? i : lastSynthesized;
        }
        assertThat(lastRecorded).as("the recording played").isPositive();
        assertThat(lastSynthesized).as("the answer came after it").isGreaterThan(lastRecorded);
        session.stopped();
        loop.drain();
        assertThat(ended.events()).anySatisfy(e -> assertThat(String.valueOf(e)).contains("rtf-bot-text",
                "One moment please.", "recording=true"));
    }

    @Test
    void aGreetingRecordingThatCannotBePlayedLetsTheModelSpeakFirstAndSaysWhy() {
        model.says(ModelReply.text("Hello, how can I help?"));
        start(recordedGreeting("gone"));
        callerSilent(1_200);
        assertThat(voice.spoken).containsExactly("Hello, how can I help?");
        session.stopped();
        loop.drain();
        assertThat(ended.events()).anySatisfy(e -> assertThat(String.valueOf(e)).contains("rtf-pipeline-error",
                "the greeting's recording gone cannot be played"));
    }

    @Test
    void aSentenceTheVoiceSpeaksAgainAfterItsConnectionDroppedIsHeardOnceWithNothingRepeated() {
        voice.dropsOnce = "Hello, this is Acme calling about your order.";
        start(definition("Hello, this is Acme calling about your order. It ships today.", true));
        callerSilent(2_000);
        // 8 + 3 words of 60 ms: 480 + 180 ms of audio, 24 + 9 frames, each one played once
        assertThat(carrier.frames).isEqualTo(33);
        assertThat(carrier.clears).isZero();
        session.stopped();
        loop.drain();
        assertThat(ended.failure()).isNull();
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content)
                .containsExactly("Hello, this is Acme calling about your order. It ships today.");
    }

    @Test
    void aBargeInClearsTheCarrierAndTheConversationKeepsOnlyTheSentencesHeard() {
        start(definition("Hello, this is Acme calling about your order. It ships today. Anything else I can do"
                + " for you today?", true));
        callerSilent(900); // the first two sentences (480 + 180 ms) played, the third started
        int clearsBefore = carrier.clears;
        recognizer.lines.add("Stop, stop.");
        model.says(ModelReply.text("Sorry, go ahead."));
        callerSpeaks(400);
        assertThat(carrier.clears).isEqualTo(clearsBefore + 1);
        callerSilent(1_200);
        session.stopped();
        loop.drain();
        Map<String, Object> interruption = eventOf("rtf-interruption");
        assertThat(payload(interruption).get("heard_text"))
                .isEqualTo("Hello, this is Acme calling about your order. It ships today.");
        // from voice activity's start (itself after 0.2 s of speech) to the clear: one tick at most
        assertThat(((Number) payload(interruption).get("barge_in_ms")).longValue()).isBetween(0L, 40L);
        List<String> said = ended.conversation().messages().stream().map(ChatMessage::content).toList();
        assertThat(said).containsExactly("Hello, this is Acme calling about your order. It ships today.", "Stop, stop.",
                "Sorry, go ahead.");
        assertThat(String.join(" ", said)).doesNotContain("Anything else");
        assertThat(ended.reason()).isEqualTo(TurnTaking.USER_HANGUP);
        // the agent's side of the recording stops where the caller cut in: what was cleared was never played
        assertThat(agentFramesRecorded()).isLessThan(carrier.frames).isGreaterThan(carrier.frames - 12);
    }

    @Test
    void whereTheNodeForbidsInterruptionTheCallerIsNotCutIn() {
        start(definition("Hello, this is Acme calling about your order. It ships today.", false));
        callerSilent(300);
        callerSpeaks(600);
        assertThat(carrier.clears).isZero();
        callerSilent(1_500);
        assertThat(voice.spoken).containsExactly("Hello, this is Acme calling about your order.", "It ships today.");
    }

    /** Starts a call whose second turn the model streams slowly; the caller cuts in {@code silenceMs} after it. */
    private boolean[] interruptTheStreamAfter(int silenceMs) {
        start(definition("Hi.", true));
        callerSilent(600);
        boolean[] cancelled = {false};
        recognizer.lines.add("Tell me everything.");
        model.replies.add(request -> Multi.createFrom().<ModelDelta>emitter(emitter -> loop.at(Duration.ofMillis(50),
                        () -> emitter.emit(new ModelDelta.Text("Well, there is a lot to say. First, "))))
                .onCancellation().invoke(() -> cancelled[0] = true));
        callerSpeaks(600);
        callerSilent(silenceMs); // the model writes its first sentence, which starts playing
        recognizer.lines.add("Actually, never mind.");
        model.says(ModelReply.text("Okay."));
        callerSpeaks(400);
        callerSilent(1_500);
        session.stopped();
        loop.drain();
        return cancelled;
    }

    @Test
    void aBargeInWhileTheModelStreamsCancelsItAndKeepsOnlyTheSentenceHeard() {
        boolean[] cancelled = interruptTheStreamAfter(1_100);
        assertThat(cancelled[0]).isTrue();
        List<String> said = ended.conversation().messages().stream().map(ChatMessage::content).toList();
        assertThat(said).containsSubsequence("Tell me everything.", "Well, there is a lot to say.",
                "Actually, never mind.", "Okay.");
        assertThat(String.join(" ", said)).doesNotContain("First");
    }

    @Test
    void aBargeInBeforeAnyWholeSentenceWasHeardJoinsTheCallersWordsIntoOneTurn() {
        boolean[] cancelled = interruptTheStreamAfter(500);
        assertThat(cancelled[0]).isTrue();
        List<String> said = ended.conversation().messages().stream().map(ChatMessage::content).toList();
        assertThat(said).containsExactly("Hi.", "Tell me everything. Actually, never mind.", "Okay.");
    }

    @Test
    void aModelStreamThatBreaksAfterASentenceIsContinuedWithWhatWasSaidAndNothingIsRepeated() {
        start(definition("Hello.", true));
        callerSilent(600);
        recognizer.lines.add("Tell me about returns.");
        modelBreaksAfter("Returns are easy. You can send it back within");
        model.says(ModelReply.text("You can send it back within thirty days."));
        callerSpeaks(600);
        callerSilent(4_000);

        assertThat(model.asked).hasSize(2);
        List<ChatMessage> continued = model.asked.get(1).messages();
        assertThat(continued.get(continued.size() - 2).content()).as("what the caller heard, and nothing more")
                .isEqualTo("Returns are easy.");
        assertThat(continued.getLast().content()).isEqualTo(Generation.CONTINUE);
        assertThat(voice.spoken).containsSubsequence("Returns are easy.", "You can send it back within thirty days.")
                .doesNotContain("You can send it back within");
        session.stopped();
        loop.drain();
        assertThat(ended.failure()).isNull();
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content).containsExactly("Hello.",
                "Tell me about returns.", "Returns are easy. You can send it back within thirty days.");
    }

    @Test
    void aModelAskedAgainAfterALongWaitHasTheCallerHearAFillerMeanwhile() {
        start(definition("Hello.", true));
        callerSilent(600);
        recognizer.lines.add("Where is my order?");
        modelRetriesThenSays(Duration.ofMillis(1_500), ModelReply.text("It ships today."));
        callerSpeaks(600);
        callerSilent(3_000);
        assertThat(voice.spoken).containsSubsequence(Generation.FILLER, "It ships today.");

        recognizer.lines.add("And the other one?");
        modelRetriesThenSays(Duration.ofMillis(300), ModelReply.text("Tomorrow."));
        callerSpeaks(600);
        callerSilent(2_000);
        assertThat(voice.spoken.stream().filter(Generation.FILLER::equals)).as("a short wait needs no filler")
                .hasSize(1);
        assertThat(voice.spoken).endsWith("Tomorrow.");
    }

    @Test
    void aSlowToolGetsAFillerLineAndAQuickOneDoesNot() {
        Map<String, Object> start = new LinkedHashMap<>(Map.of("name", "Start", "prompt", "Help.",
                "greeting", "Hi.", "allow_interrupt", true));
        WorkflowDefinition definition = WorkflowDefinition.of(Map.of("nodes", List.of(Map.of("id", "1", "type",
                "startCall", "data", start)), "edges", List.of()));
        FunctionSpec lookup = new FunctionSpec(
                "lookup", "Looks an order up", Map.of("type", "object"), FunctionSpec.Kind.TOOL);
        long[] toolMs = {2_000};
        ToolRunner tools = (turn, step) -> Uni.createFrom().emitter(e -> loop.at(Duration.ofMillis(toolMs[0]), () -> {
            turn.acceptToolResult(step.call().id(), "found");
            e.complete(null);
        }));
        AgentEngine engine = new AgentEngine(definition, Map.of(), node -> List.of(lookup), 0, 6);
        ModelEndpoint llm = new ModelEndpoint(ModelService.LLM, "openai", "m", null, List.of("k"), Map.of(), false);
        session = new VoiceSession(parts(engine, llm, tools, null), engine.initialState(), e -> ended = e,
                Moves.NONE);
        carrier.session = session;
        session.connected();
        callerSilent(600);
        recognizer.lines.addAll(List.of("Where is my order?", "And the other one?"));
        model.says(ModelReply.calls(new ToolCall("c1", "lookup", Map.of())));
        model.says(ModelReply.text("It shipped."));
        callerSpeaks(600);
        callerSilent(3_500);
        assertThat(voice.spoken).containsSubsequence(Generation.FILLER, "It shipped.");

        toolMs[0] = 200;
        model.says(ModelReply.calls(new ToolCall("c2", "lookup", Map.of())));
        model.says(ModelReply.text("That one too."));
        callerSpeaks(600);
        callerSilent(2_500);
        assertThat(voice.spoken).endsWith("That one too.");
        assertThat(voice.spoken.stream().filter(Generation.FILLER::equals)).hasSize(1);
    }

    @Test
    void aModelThatNeverAnswersAndAVoiceThatNeverSpeaksAreFailuresNotSilence() {
        start(definition("Hello.", true));
        callerSilent(600);
        recognizer.lines.add("Are you there?");
        model.replies.add(request -> Multi.createFrom().emitter(emitter -> { })); // never a word
        callerSpeaks(600);
        callerSilent(9_000);
        assertThat(ended).as("still waiting for the model").isNull();
        callerSilent(4_000);
        assertThat(voice.spoken).endsWith(VoiceSession.FALLBACK_LINE);
        assertThat(ended.failure()).contains("language model: no answer within 8 s");
        assertThat(carrier.closed).isEqualTo(Ended.PIPELINE_ERROR);
        // the transcript has everything both sides said: the caller's unanswered words, the fallback line heard
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content)
                .containsExactly("Hello.", "Are you there?", VoiceSession.FALLBACK_LINE);
    }

    @Test
    void aVoiceThatNeverSpeaksEndsTheCallWithTheReason() {
        voice.mute = true;
        start(definition("Hello.", true));
        callerSilent(4_000);
        assertThat(ended).isNull();
        callerSilent(1_500);
        assertThat(ended.failure()).contains("text-to-speech: no audio within 5 s");
        assertThat(carrier.closed).isEqualTo(Ended.PIPELINE_ERROR);
    }

    @Test
    void aRecognizerThatFailsMidCallLeavesTheCallerAFallbackLineThenTheCallEnds() {
        start(definition("Hello.", true));
        callerSilent(600);
        recognizer.listener.failed("connection reset");
        callerSilent(3_000);
        assertThat(voice.spoken).endsWith(VoiceSession.FALLBACK_LINE);
        assertThat(carrier.closed).isEqualTo(Ended.PIPELINE_ERROR);
        assertThat(ended.failure()).contains("connection reset");
        assertThat(ended.events()).extracting(e -> e.get("type")).contains("rtf-pipeline-error");
    }

    // ---- the workflow's turn settings ----

    @Test
    void whatTheCallerSaysOverAGreetingThatCannotBeInterruptedIsAnsweredOnceItWasHeard() {
        start(definition("Hello, this is Acme calling about your order. It ships today.", false));
        callerSpeaks(600);
        recognizer.listener.transcript("Is this about my refund?", true); // Deepgram's own endpointing settled it
        model.says(ModelReply.text("No, about your order."));
        callerSilent(3_500);
        assertThat(carrier.clears).isZero();
        assertThat(model.asked).hasSize(1);
        assertThat(model.asked.getFirst().messages().getLast().content()).isEqualTo("Is this about my refund?");
        assertThat(voice.spoken).endsWith("No, about your order.");
    }

    @Test
    void withMinWordsABackchannelOverTheAgentDoesNotStopItAndAnUtteranceOfThatManyWordsDoes() {
        turns = new TurnTaking(VoiceSessionFactory.RULES, CallSettings.TurnStart.MIN_WORDS, 3);
        start(definition("Hello, this is Acme calling about the order you placed with us last week. It ships"
                + " today and should arrive on Friday. Please keep your phone nearby for the courier.", true));
        callerSilent(300);
        callerSpeaks(300);
        recognizer.listener.transcript("Uh-huh.", true);
        callerSilent(300);
        assertThat(carrier.clears).as("a backchannel is not a turn").isZero();
        callerSpeaks(200);
        assertThat(carrier.clears).as("voice activity alone does not interrupt").isZero();
        recognizer.listener.transcript("Wait, which order", false);
        loop.drain();
        assertThat(carrier.clears).isEqualTo(1);
        recognizer.lines.add("Wait, which order is that?");
        model.says(ModelReply.text("The blue lamp."));
        callerSpeaks(300);
        callerSilent(2_000);
        assertThat(model.asked).hasSize(1);
        assertThat(model.asked.getFirst().messages().getLast().content()).isEqualTo("Wait, which order is that?");
        assertThat(voice.spoken).endsWith("The blue lamp.");
    }

    @Test
    void theAgentsOwnVoiceComingBackQuietlyDoesNotInterruptItButTheCallerDoes() {
        start(definition("Hello, this is Acme calling about the order you placed with us last week. It ships"
                + " today and should arrive on Friday. Please keep your phone nearby for the courier.", true));
        callerSilent(300);
        // the fake voice's audio is at full scale (about 0 dBFS): its echo 25 dB below, -28 dBFS, is loud enough for
        // voice activity on its own
        callerSounds(600, 1_800);
        assertThat(carrier.clears).as("an echo is not a barge-in").isZero();
        callerSpeaks(300);
        assertThat(carrier.clears).as("the caller at about the agent's level is").isEqualTo(1);
        callerSilent(2_000);
        callerSounds(600, 1_800);
        callerSilent(1_500);
        assertThat(recognizer.finalizes).as("between answers the same level is the caller speaking")
                .isEqualTo(2);
    }

    @Test
    void aBackchannelOrACoughOverTheAgentHoldsItAndItResumesWithNothingLost() {
        String greeting = "Hello, this is Acme calling about the order you placed with us last week. It ships"
                + " today and should arrive on Friday. Please keep your phone nearby for the courier.";
        long greetingMs = greeting.split("\\s+").length * 60L;
        start(definition(greeting, true));
        callerSilent(900);
        recognizer.lines.add("Uh-huh.");
        callerSpeaks(400);
        assertThat(carrier.clears).as("held: silent at once").isEqualTo(1);
        long sentWhileHeld = carrier.sentMs();
        callerSilent(200);
        assertThat(carrier.sentMs()).as("nothing is sent while the caller's words are awaited")
                .isEqualTo(sentWhileHeld);
        callerSilent(600);
        assertThat(carrier.sentMs()).as("a backchannel: it resumed").isGreaterThan(sentWhileHeld);
        callerSpeaks(300); // a cough: the recognizer has no words for it
        assertThat(carrier.clears).isEqualTo(2);
        callerSilent(8_000);
        session.stopped();
        loop.drain();
        assertThat(eventOf("rtf-interruption")).as("no turn was taken").isNull();
        assertThat(model.asked).as("nothing was answered").isEmpty();
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content)
                .as("the whole greeting was heard").containsExactly(greeting);
        // what the clears dropped was sent again, and nothing more
        assertThat(carrier.sentMs()).isBetween(greetingMs + 200, greetingMs + 60 + 2 * 400);
    }

    @Test
    void theAmbientSoundPlaysUnderTheAgentAndAloneBetweenItsWordsSoTheCallerNeverHearsDeadAir() {
        short[] hum = new short[8_000];
        Arrays.fill(hum, (short) 2_000); // a sound whose frames tell themselves from the fake voice's (negative) audio
        ambience = new AmbientLoop(hum, 8_000, 0.5);
        start(definition("Hello, this is Acme. How can I help?", true));
        callerSilent(1_500);
        assertThat(carrier.clears).as("the greeting's first word did not wait behind the sound").isEqualTo(1);
        recognizer.lines.add("Where is my order?");
        model.says(ModelReply.text("It ships today and should arrive on Friday afternoon with the courier. Please"
                + " keep your phone nearby so the courier can reach you."));
        callerSpeaks(800);
        callerSilent(900); // the answer plays
        int framesBefore = carrier.frames;
        recognizer.lines.add("Uh-huh.");
        callerSpeaks(300); // a backchannel: the agent is held
        int heldFrom = carrier.frames;
        callerSilent(200);
        assertThat(carrier.means.subList(heldFrom, carrier.frames)).as("while held only the sound plays, in time")
                .hasSizeBetween(9, 11).allSatisfy(mean -> assertThat(mean).isBetween(900.0, 1_100.0));
        callerSilent(3_000);
        session.stopped();
        loop.drain();

        assertThat(model.asked).as("the backchannel was no turn").hasSize(1);
        assertThat(carrier.frames).isGreaterThan(framesBefore);
        long callMs = Duration.between(Instant.parse("2026-11-26T10:00:00Z"), loop.now).toMillis();
        assertThat(carrier.longestGapMs).as("the caller never hears dead air").isLessThanOrEqualTo(20);
        assertThat(carrier.sentMs()).as("about the call's length, plus what the clears dropped")
                .isBetween(callMs - 100, callMs + 600);
        List<Double> voice = carrier.means.stream().filter(mean -> mean < 0).toList();
        assertThat(voice).as("the agent spoke").hasSizeGreaterThan(50)
                .allSatisfy(mean -> assertThat(mean).as("its frames carry the sound (the voice alone is -32,124)")
                        .isBetween(-31_400.0, -30_800.0));
        assertThat(carrier.means.stream().filter(mean -> mean > 0).count()).as("the sound alone between its words")
                .isGreaterThan(150);
        assertThat(recorded.stream().skip(1).filter(f -> f[1][0] == (byte) 0xFF).count())
                .as("the recording's agent track has the sound too").isZero();
    }

    @Test
    void aLongCallsOlderTurnsAreSummarisedAndTheModelIsAskedFromTheSummaryOnWithTheTranscriptWhole() {
        List<ChatMessage> before = new ArrayList<>();
        for (int i = 1; i <= 13; i++) {
            before.add(ChatMessage.user("Question " + i + "?"));
            before.add(ChatMessage.assistant("Answer " + i + ".", List.of()));
        }
        WorkflowDefinition definition = definition("Hello.", true);
        AgentEngine engine = new AgentEngine(definition, Map.of());
        ModelEndpoint llm = new ModelEndpoint(ModelService.LLM, "openai", "gpt-4o-mini", null, List.of("k"), Map.of(),
                false);
        VoiceSession.Parts plain = parts(engine, llm, ToolRunner.NONE, null);
        session = new VoiceSession(new VoiceSession.Parts(plain.line(), plain.listening(), plain.answering(),
                plain.rules(), null, true), new ConversationState("1", before, Map.of(), 13, false, null),
                e -> ended = e, Moves.NONE);
        carrier.session = session;
        model.verdicts.add("The caller asked thirteen questions about their order."); // the summary, when asked
        session.connected();
        loop.drain();
        callerSilent(600);
        recognizer.lines.add("Question 14?");
        model.says(ModelReply.text("Answer 14."));
        callerSpeaks(400);
        callerSilent(2_000);
        assertThat(model.classified).as("the summary was asked for once, after the greeting's turn").hasSize(1);
        assertThat(model.classified.getFirst().messages().getLast().content()).contains("Caller: Question 1?");

        recognizer.lines.add("Question 15?");
        model.says(ModelReply.text("Answer 15."));
        callerSpeaks(400);
        callerSilent(2_000);
        List<String> asked = model.asked.getLast().messages().stream().map(ChatMessage::content).toList();
        assertThat(asked).contains(ContextCompaction.PREFIX + "The caller asked thirteen questions about their order.",
                "Question 15?").doesNotContain("Question 1?");
        session.stopped();
        loop.drain();
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content).contains("Question 1?",
                "Answer 15.");
        assertThat(ended.events()).extracting(e -> e.get("type")).contains("rtf-context-compacted");
    }

    @Test
    void theBotsTextComesAfterItsFiguresSoTheDashboardSeesItStopSpeaking() {
        start(definition("Hello.", true));
        callerSilent(600);
        recognizer.lines.add("Where is my order?");
        model.says(ModelReply.text("It ships today.")); // written whole before its audio starts
        callerSpeaks(600);
        callerSilent(2_000);
        recognizer.lines.add("Thanks.");
        model.says(ModelReply.text("You are welcome, goodbye now, and have a lovely day."));
        callerSpeaks(600);
        callerSilent(3_000);
        session.stopped();
        loop.drain();
        List<String> types = carrier.live;
        assertThat(types).containsSubsequence("rtf-ttfb-metric", "rtf-bot-started-speaking", "rtf-bot-text",
                "rtf-bot-stopped-speaking", "rtf-ttfb-metric", "rtf-bot-started-speaking", "rtf-bot-text",
                "rtf-bot-stopped-speaking");
        for (int i = 0; i < types.size(); i++) {
            if (types.get(i).equals("rtf-bot-stopped-speaking")) {
                String lastMessage = null;
                for (int j = i - 1; j >= 0 && lastMessage == null; j--) {
                    if (types.get(j).equals("rtf-bot-text") || types.get(j).equals("rtf-ttfb-metric")) {
                        lastMessage = types.get(j);
                    }
                }
                assertThat(lastMessage).as("what the dashboard finalises when the bot stops").isEqualTo("rtf-bot-text");
            }
        }
    }

    @Test
    void aCallerWhoHangsUpWhileTheAnswerIsWrittenKeepsTheirWordsAndWhatWasHeardInTheTranscript() {
        start(definition("Hello.", true));
        callerSilent(600);
        recognizer.lines.add("What are your opening hours?");
        model.replies.add(request -> Multi.createFrom().emitter(emitter -> { })); // still writing at the hang-up
        callerSpeaks(600);
        callerSilent(600);
        session.stopped();
        loop.drain();
        assertThat(ended.reason()).isEqualTo(TurnTaking.USER_HANGUP);
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content)
                .containsExactly("Hello.", "What are your opening hours?");
    }

    // ---- fallback providers ----

    @Test
    void aRecognizerThatFailsForGoodIsReplacedByTheFallbackWhichHearsTheLineSaidAcrossTheSwitch() {
        backupRecognizer = new Recognizer();
        start(definition("Hello.", true));
        callerSilent(600);
        callerSpeaks(400);
        int framesBefore = recognizer.frames;
        recognizer.listener.failed("socket closed (reconnects spent)");
        loop.drain();
        assertThat(recognizer.closed).isTrue();
        assertThat(backupRecognizer.frames).as("the line's start, not yet settled, went to the fallback")
                .isGreaterThanOrEqualTo(20);
        backupRecognizer.lines.add("Where is my order?");
        model.says(ModelReply.text("It ships today."));
        callerSpeaks(400);
        callerSilent(2_000);
        assertThat(recognizer.frames).as("the failed recognizer hears nothing more").isEqualTo(framesBefore);
        assertThat(voice.spoken).endsWith("It ships today.");
        session.stopped();
        loop.drain();
        assertThat(ended.failure()).isNull();
        assertThat(ended.reason()).isNotEqualTo(Ended.PIPELINE_ERROR);
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content)
                .containsExactly("Hello.", "Where is my order?", "It ships today.");
        assertThat(payload(eventOf("rtf-provider-switched"))).isEqualTo(Map.of("stage", "stt", "from",
                "deepgram/nova-3", "to", "openai/gpt-4o-transcribe", "reason", "socket closed (reconnects spent)"));
        assertThat(ended.shares().speechSeconds()).containsOnlyKeys("openai/gpt-4o-transcribe");
        assertThat(ended.shares().speechSeconds().get("openai/gpt-4o-transcribe"))
                .isEqualTo(backupRecognizer.seconds());
        assertThat(ended.speechSeconds()).isEqualTo(recognizer.seconds() + backupRecognizer.seconds());
    }

    @Test
    void aRecognizerThatFailsForGoodWhileItsFinalIsAwaitedIsReplacedByTheFallbackWhichIsAskedToFinalizeTheLine() {
        backupRecognizer = new Recognizer();
        start(definition("Hello.", true));
        callerSilent(600);
        model.says(ModelReply.text("It ships today."));
        recognizer.deaf = true;
        callerSpeaks(600);
        callerSilent(400); // voice activity heard the caller stop: the recognizer is asked to finalize, and never answers
        assertThat(recognizer.finalizes).isEqualTo(1);
        backupRecognizer.lines.add("Where is my order?");
        recognizer.listener.failed("socket closed (reconnects spent)");
        loop.drain();
        assertThat(backupRecognizer.frames).as("the line, not yet settled, went to the fallback")
                .isGreaterThanOrEqualTo(30);
        assertThat(backupRecognizer.finalizes).as("the fallback settles the line the caller finished").isEqualTo(1);
        callerSilent(2_000);
        assertThat(voice.spoken).endsWith("It ships today.");
        session.stopped();
        loop.drain();
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content)
                .containsExactly("Hello.", "Where is my order?", "It ships today.");
    }

    @Test
    void aModelThatFailsForGoodIsReplacedByTheFallbackForTheSameTurnAndTheRestOfTheCall() {
        backupLlm = new ModelEndpoint(ModelService.LLM, "groq", "llama-3.3-70b", null, List.of("g"), Map.of(), false);
        start(definition("Hello.", true));
        callerSilent(600);
        recognizer.lines.add("Where is my order?");
        model.replies.add(request -> Multi.createFrom().failure(new ModelUnavailableException(
                "The language model failed: HTTP 503 (3 attempts)", 3)));
        model.says(new ModelReply("It ships today.", List.of(), new TokenUsage(40, 5, 45)));
        callerSpeaks(600);
        callerSilent(2_000);
        assertThat(model.askedOf).containsExactly("openai", "groq");
        assertThat(model.asked.get(1)).as("the same turn, asked again").isEqualTo(model.asked.get(0));
        assertThat(voice.spoken).endsWith("It ships today.");

        recognizer.lines.add("Thanks.");
        model.says(new ModelReply("You're welcome.", List.of(), new TokenUsage(50, 4, 54)));
        callerSpeaks(600);
        callerSilent(2_000);
        assertThat(model.askedOf).as("the call stays on the fallback").containsExactly("openai", "groq", "groq");
        session.stopped();
        loop.drain();
        assertThat(ended.failure()).isNull();
        assertThat(ended.shares().tokens()).isEqualTo(Map.of("groq/llama-3.3-70b", new TokenUsage(90, 9, 99)));
        assertThat(eventOf("rtf-provider-switched")).isNotNull();
        assertThat(payload(eventOf("rtf-provider-switched"))).containsEntry("stage", "llm")
                .containsEntry("to", "groq/llama-3.3-70b");
    }

    @Test
    void aModelThatStaysSilentPastItsWaitIsReplacedByTheFallback() {
        backupLlm = new ModelEndpoint(ModelService.LLM, "groq", "llama-3.3-70b", null, List.of("g"), Map.of(), false);
        start(definition("Hello.", true));
        callerSilent(600);
        recognizer.lines.add("Are you there?");
        model.replies.add(request -> Multi.createFrom().emitter(emitter -> { })); // never a word
        model.says(ModelReply.text("Yes, I am here."));
        callerSpeaks(600);
        callerSilent(11_000);
        assertThat(voice.spoken).endsWith("Yes, I am here.").doesNotContain(VoiceSession.FALLBACK_LINE);
        session.stopped();
        loop.drain();
        assertThat(ended.failure()).isNull();
        assertThat(payload(eventOf("rtf-provider-switched"))).containsEntry("reason", "no answer within 8 s");
    }

    @Test
    void aVoiceThatFailsForGoodMidAnswerIsReplacedAndTheFallbackSaysWhatWasNotHeardYet() {
        backupVoice = new Voice();
        voice.failsAt = "It ships today.";
        start(definition("Hello.", true));
        callerSilent(600);
        recognizer.lines.add("Where is my order?");
        model.says(ModelReply.text("It ships today. Anything else?"));
        callerSpeaks(600);
        callerSilent(2_500);
        assertThat(backupVoice.spoken).containsExactly("It ships today.", "Anything else?");
        // 60 ms a word: "Hello." 3 frames, "It ships today." 9 (the first voice's part of it that went out is not
        // played again from the fallback's audio), "Anything else?" 6: every frame once
        assertThat(carrier.frames).isEqualTo(3 + 9 + 6);
        session.stopped();
        loop.drain();
        assertThat(ended.failure()).isNull();
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content)
                .containsExactly("Hello.", "Where is my order?", "It ships today. Anything else?");
        assertThat(ended.shares().characters()).isEqualTo(Map.of("cartesia/sonic-2", backupVoice.characters));
        assertThat(ended.spokenCharacters()).isEqualTo(voice.characters + backupVoice.characters);
        assertThat(payload(eventOf("rtf-provider-switched"))).containsEntry("stage", "tts")
                .containsEntry("from", "elevenlabs/eleven_flash_v2_5").containsEntry("to", "cartesia/sonic-2");
    }

    @Test
    void whenTheFallbackFailsTooTheCallEndsAsBefore() {
        backupVoice = new Voice();
        voice.failsAt = "It ships today.";
        backupVoice.failsAt = "It ships today.";
        start(definition("Hello.", true));
        callerSilent(600);
        recognizer.lines.add("Where is my order?");
        model.says(ModelReply.text("It ships today."));
        callerSpeaks(600);
        callerSilent(2_000);
        assertThat(ended.reason()).isEqualTo(Ended.PIPELINE_ERROR);
        assertThat(ended.failure()).startsWith("text-to-speech: HTTP 500");
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content)
                .startsWith("Hello.", "Where is my order?");
    }

    private Map<String, Object> eventOf(String type) {
        return ended.events().stream().filter(e -> type.equals(e.get("type"))).findFirst().orElse(null);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> payload(Map<String, Object> event) {
        return (Map<String, Object>) event.get("payload");
    }
}
