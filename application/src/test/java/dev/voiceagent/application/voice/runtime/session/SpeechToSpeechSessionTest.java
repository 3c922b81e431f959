package dev.voiceagent.application.voice.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.conversation.ToolRunner;
import dev.voiceagent.application.voice.runtime.RecordedPrompts;
import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.application.voice.runtime.session.SpeechToSpeechSession;
import dev.voiceagent.application.voice.runtime.session.VoiceSessionTest.Carrier;
import dev.voiceagent.application.voice.runtime.session.VoiceSessionTest.VirtualLoop;
import dev.voiceagent.domain.audio.AmbientLoop;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.ToolCall;
import dev.voiceagent.domain.voice.TurnRules;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A call on a speech-to-speech model, on a virtual clock: a scripted model (the test plays its events) and a carrier
 * that plays in real time and echoes marks. What the session sends the model, and what the conversation keeps.
 */
class SpeechToSpeechSessionTest {

    private final VirtualLoop loop = new VirtualLoop();
    private final Carrier carrier = new Carrier(loop);
    private final Model model = new Model();
    private SpeechToSpeech.Listener events;
    private SpeechToSpeechSession session;
    private Ended ended;

    /** The model as the session drives it: what it was told, in order. */
    final class Model implements SpeechToSpeech.Stream {
        final List<SpeechToSpeech.Setup> setups = new ArrayList<>();
        final List<String> responses = new ArrayList<>();
        final List<String> outputs = new ArrayList<>();
        final List<Object[]> truncates = new ArrayList<>();
        final List<String> told = new ArrayList<>();
        int frames;
        boolean closed;

        @Override
        public void configure(SpeechToSpeech.Setup setup) {
            setups.add(setup);
        }

        @Override
        public void audio(byte[] frame) {
            frames++;
        }

        @Override
        public void respond(String instructions) {
            responses.add(instructions == null ? "" : instructions);
        }

        @Override
        public void answer(String callId, String output) {
            outputs.add(callId + "=" + output);
        }

        @Override
        public void said(String text) {
            told.add(text);
        }

        @Override
        public void truncate(String itemId, long audioEndMs) {
            truncates.add(new Object[] {itemId, audioEndMs});
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

    @BeforeEach
    void start() {
        session = begin(loop, carrier, model, null);
        carrier.session = session;
        session.connected();
        loop.drain();
    }

    /** A speech-to-speech session on {@code line}, with that sound under the model's voice (null: none). */
    private SpeechToSpeechSession begin(VirtualLoop on, Carrier line, Model speaker, AmbientLoop ambience) {
        return begin(on, line, speaker, ambience, VoiceSessionTest.definition("Hello, this is Acme. How can I help?",
                true), id -> io.smallrye.mutiny.Uni.createFrom().failure(new IllegalStateException("none")));
    }

    private SpeechToSpeechSession begin(VirtualLoop on, Carrier line, Model speaker, AmbientLoop ambience,
            WorkflowDefinition definition, Function<String, Uni<RecordedPrompts.Prompt>> prompts) {
        AgentEngine engine = new AgentEngine(definition, Map.of());
        CallRecorder.Recording recording = new CallRecorder.Recording() {
            @Override
            public void frame(byte[] caller, byte[] agent) {
            }

            @Override
            public io.smallrye.mutiny.Uni<String> finish() {
                return io.smallrye.mutiny.Uni.createFrom().nullItem();
            }
        };
        SpeechToSpeechSession.Parts parts = new SpeechToSpeechSession.Parts(new CallLine(on, line, recording,
                VoiceMetrics.NONE, ambience), listener -> {
                    events = listener;
                    return speaker;
                }, engine, ToolRunner.NONE, TurnRules.DEFAULT, prompts);
        return new SpeechToSpeechSession(parts, engine.initialState(), e -> ended = e);
    }

    @Test
    void aPreRecordedGreetingPlaysItsAudioAndTheModelIsToldItWasSaidNotAskedToSpeak() {
        byte[] audio = new byte[160 * 40]; // 800 ms of a pattern that is not silence
        java.util.Arrays.fill(audio, (byte) 0x20);
        List<String> asked = new ArrayList<>();
        VirtualLoop quiet = new VirtualLoop();
        Carrier line = new Carrier(quiet);
        Model speaker = new Model();
        SpeechToSpeechSession greeted = begin(quiet, line, speaker, null, VoiceSessionTest.recordedGreeting("w-1"),
                id -> {
                    asked.add(id);
                    return Uni.createFrom().item(new RecordedPrompts.Prompt("Welcome to Acme Dental.", audio));
                });
        line.session = greeted;
        greeted.connected();
        quiet.advance(Duration.ofMillis(1_200));
        assertThat(asked).containsExactly("w-1");
        assertThat(line.frames).as("the recording's 40 frames").isEqualTo(40);
        assertThat(speaker.told).containsExactly("Welcome to Acme Dental.");
        assertThat(speaker.responses).as("the model does not speak the greeting again").isEmpty();
        greeted.stopped();
        quiet.drain();
    }

    @Test
    void aGreetingRecordingThatCannotBePlayedLetsTheModelSpeakFirstAndSaysWhy() {
        VirtualLoop quiet = new VirtualLoop();
        Carrier line = new Carrier(quiet);
        Model speaker = new Model();
        SpeechToSpeechSession greeted = begin(quiet, line, speaker, null, VoiceSessionTest.recordedGreeting("gone"),
                id -> Uni.createFrom().failure(new IllegalStateException("no recording " + id)));
        line.session = greeted;
        greeted.connected();
        quiet.advance(Duration.ofMillis(200));
        assertThat(speaker.told).isEmpty();
        assertThat(speaker.responses).as("the model speaks first instead").hasSize(1);
        greeted.stopped();
        quiet.drain();
        assertThat(ended.events()).anySatisfy(e -> assertThat(String.valueOf(e)).contains("rtf-pipeline-error",
                "the greeting's recording gone cannot be played"));
    }

    @Test
    void theAmbientSoundPlaysUnderTheModelsVoiceAndAloneWhileItIsSilent() {
        short[] hum = new short[8_000];
        java.util.Arrays.fill(hum, (short) 2_000);
        VirtualLoop quiet = new VirtualLoop();
        Carrier line = new Carrier(quiet);
        SpeechToSpeechSession withSound = begin(quiet, line, new Model(), new AmbientLoop(hum, 8_000, 0.5));
        line.session = withSound;
        withSound.connected();
        quiet.advance(Duration.ofMillis(500));
        assertThat(line.means).as("before the model speaks, the sound alone, in time").hasSizeBetween(24, 28)
                .allSatisfy(mean -> assertThat(mean).isBetween(900.0, 1_100.0));
        int before = line.frames;
        events.responseStarted("r1");
        events.audio("r1", "i1", new byte[8 * 600]); // the model's voice: zero bytes, -32,124 in mu-law
        quiet.drain();
        quiet.advance(Duration.ofMillis(1_500));
        assertThat(line.means.subList(before, line.frames)).as("its voice carries the sound")
                .anySatisfy(mean -> assertThat(mean).isBetween(-31_400.0, -30_800.0))
                .noneSatisfy(mean -> assertThat(mean).isLessThan(-31_600.0));
        assertThat(line.longestGapMs).as("never dead air").isLessThanOrEqualTo(20);
        withSound.stopped();
        quiet.drain();
    }

    /** The model speaks {@code ms} of audio for a response, in 250 ms pieces, at once (faster than real time). */
    private void speaks(String response, String item, long ms) {
        for (long at = 0; at < ms; at += 250) {
            events.audio(response, item, new byte[(int) Math.min(250, ms - at) * 8]);
        }
        loop.drain();
    }

    private void done(String response, String text, ToolCall... calls) {
        events.responseDone(new SpeechToSpeech.Response(response, "completed", text, List.of(calls),
                new TokenUsage(40, 20, 60)));
        loop.drain();
    }

    @Test
    void aBargeInClearsTheCarrierTruncatesTheItemAtWhatWasHeardAndTheConversationKeepsThoseWords() {
        assertThat(model.setups).singleElement().satisfies(s -> {
            assertThat(s.instructions()).contains("Help with orders.");
            assertThat(s.functions()).extracting(f -> f.name()).containsExactly("done");
            assertThat(s.interruptible()).isTrue();
        });
        assertThat(model.responses).singleElement().satisfies(r -> assertThat(r).startsWith("Say exactly")
                .contains("\"Hello, this is Acme. How can I help?\""));
        events.responseStarted("r1");
        speaks("r1", "i1", 2_000);
        done("r1", "Hello, this is Acme. How can I help?");
        loop.advance(Duration.ofMillis(1_300));
        events.speechStarted();
        loop.drain();

        assertThat(carrier.clears).isEqualTo(1);
        assertThat(model.truncates).singleElement().satisfies(t -> {
            assertThat(t[0]).isEqualTo("i1");
            assertThat((long) t[1]).as("the audio played before the caller cut in").isBetween(1_200L, 1_340L);
        });
        events.speechStopped("u1");
        events.responseStarted("r2"); // the model answers the caller's turn by itself
        events.heard("u1", "Where is my order?"); // its transcript comes after the answer began
        speaks("r2", "i2", 1_000);
        done("r2", "It ships today.");
        loop.advance(Duration.ofMillis(1_500));
        session.stopped();
        loop.drain();

        assertThat(ended.reason()).isEqualTo("user_hangup");
        // the words heard, estimated by their length over the audio (the model gives no timings)
        assertThat(ended.conversation().messages()).extracting(ChatMessage::role, ChatMessage::content).containsExactly(
                org.assertj.core.groups.Tuple.tuple(ChatMessage.Role.ASSISTANT, "Hello, this is Acme."),
                org.assertj.core.groups.Tuple.tuple(ChatMessage.Role.USER, "Where is my order?"),
                org.assertj.core.groups.Tuple.tuple(ChatMessage.Role.ASSISTANT, "It ships today."));
        assertThat(ended.tokens().totalTokens()).as("both responses").isEqualTo(120);
        assertThat(model.closed).isTrue();
    }

    @Test
    void aResponseAskedForByAnAnswerCutShortBeforeItBeganIsNoCallersTurnAndATransitionSendsTheNextSetup() {
        events.speechStarted(); // the caller speaks before the greeting the session asked for began
        loop.drain();
        events.responseStarted("r1"); // the greeting's: nothing to play it for, and no turn of the caller's
        speaks("r1", "i1", 500);
        done("r1", "Hello, this is Acme. How can I help?");
        events.speechStopped("u1");
        events.responseStarted("r2"); // the caller's turn, answered by the model
        events.heard("u1", "That is all, thanks.");
        done("r2", null, new ToolCall("call_1", "done", Map.of()));
        // the engine moved to the goodbye node: its setup, the call's output, then a response asked for
        assertThat(model.setups).hasSize(2);
        assertThat(model.setups.getLast().instructions()).contains("Say goodbye.");
        assertThat(model.setups.getLast().interruptible()).isFalse();
        assertThat(model.outputs).singleElement().satisfies(o -> assertThat(o).startsWith("call_1=Moved to Goodbye"));
        assertThat(model.responses).hasSize(2);
        events.responseStarted("r3");
        speaks("r3", "i3", 500);
        done("r3", "Goodbye.");
        loop.advance(Duration.ofMillis(800));

        assertThat(ended).as("the goodbye node ends the call once its words were heard").isNotNull();
        assertThat(ended.reason()).isEqualTo("end_call_node");
        assertThat(ended.conversation().userTurns()).as("one turn of the caller's, not two").isEqualTo(1);
        assertThat(ended.conversation().messages()).extracting(ChatMessage::content)
                .contains("That is all, thanks.", "Goodbye.");
        assertThat(carrier.format()).isEqualTo(AudioFormat.MULAW_8K);
    }
}
