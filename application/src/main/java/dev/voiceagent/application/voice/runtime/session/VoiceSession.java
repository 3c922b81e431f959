package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.conversation.ModelDelta;
import dev.voiceagent.application.conversation.ToolRunner;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.application.voice.runtime.port.out.CallCheckpoint;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.application.voice.runtime.RecordedPrompts;
import dev.voiceagent.domain.audio.Framer;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.conversation.AgentEngine.Step;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.voice.HeardText;
import dev.voiceagent.domain.voice.Playout;
import dev.voiceagent.domain.voice.SpeakableText;
import dev.voiceagent.domain.voice.TurnTaking;
import dev.voiceagent.domain.voice.VoiceActivity;
import dev.voiceagent.domain.voice.VoiceCommand;
import dev.voiceagent.domain.voice.VoiceEvent;
import dev.voiceagent.domain.voice.VoicemailDetection;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * One call's pipeline: the caller's audio to voice activity and speech-to-text, {@link TurnTaking} deciding who
 * speaks, the {@link AgentEngine} answering on the streamed language model, sentences to speech as they are written,
 * the speech framed and paced to the carrier with marks, and a barge-in cutting it all short. Everything runs on the
 * call's {@link CallLoop} (callbacks of the providers are moved there), so nothing here needs a lock; nothing blocks.
 * When the call ends, {@code onEnd} gets what it leaves behind.
 */
public final class VoiceSession implements MediaInput {

    /** What the agent says when the caller stays silent. */
    static final String IDLE_PROMPT = "Are you still there?";
    /** What the caller hears when a provider fails mid-call, before the call ends. */
    static final String FALLBACK_LINE = "I'm sorry, I'm having trouble right now. Please call back later.";
    public static final String PIPELINE_ERROR = "pipeline_error";
    /** The call is handed to a person: its media stays up until the carrier took it (the session's owner does it). */
    public static final String TRANSFER = "transfer_call";
    /** What the caller hears while a slow tool runs. */
    static final String FILLER = "One moment, please.";
    static final Duration FILLER_AFTER = Duration.ofSeconds(1);
    /** How long the model may take to its first words, and a voice to a sentence's first audio, before they failed. */
    static final Duration MODEL_WAIT = Duration.ofSeconds(8);
    static final Duration VOICE_WAIT = Duration.ofSeconds(5);
    static final Duration TICK = Duration.ofMillis(20);
    static final int FRAME_MS = 20;
    /** How long a failed call waits for its fallback line to be heard. */
    static final Duration FALLBACK_LIMIT = Duration.ofSeconds(10);

    /** Everything a session works with. */
    public record Parts(CallLoop loop, MediaChannel media, SpeechToText.Stream stt, TextToSpeech.Stream tts,
            VoiceActivityDetector.Stream vad, int vadWindowMillis, AgentEngine engine, LanguageModel model,
            ModelEndpoint llm, ToolRunner tools, TurnTaking rules, VoiceActivity.Params activity,
            CallRecorder.Recording recording, VoiceMetrics metrics,
            java.util.function.Function<String, Uni<RecordedPrompts.Prompt>> prompts, Voicemail voicemail) {
    }

    /**
     * Voicemail detection on this call (null: none, as on inbound calls): the workflow's setting and the model that
     * classifies the callee's first turn.
     */
    public record Voicemail(VoicemailDetection detection, ModelEndpoint model) {
    }

    /** How long the callee stays silent after a voicemail greeting (its beep included) before the message is left. */
    static final Duration AFTER_GREETING = Duration.ofMillis(1_000);
    /** How long the classifier may take: past it the callee is taken for a person and answered. */
    static final Duration CLASSIFY_WAIT = Duration.ofSeconds(3);

    /** What the caller hears when the call continues on another replica. */
    static final String RESUME_LINE = "Sorry about that. Where were we?";

    /**
     * How a call moves between replicas: the checkpoint it continues from (null for a new call), where each finished
     * turn's checkpoint goes, and what takes a call this replica lets go (its checkpoint, to be released).
     */
    public record Moves(CallCheckpoint resumed, Consumer<CallCheckpoint> checkpoints, Consumer<CallCheckpoint> moved) {

        public static final Moves NONE = new Moves(null, c -> { }, c -> { });
    }

    /** What a call leaves: why it ended, the conversation, usage, and the events of its log. */
    public record Ended(String reason, ConversationState conversation, TokenUsage tokens, double speechSeconds,
            long spokenCharacters, Instant connectedAt, Instant endedAt, List<java.util.Map<String, Object>> events,
            String failure) {

        /** The same end with another reason and failure (a transfer the carrier refused). */
        public Ended as(String otherReason, String otherFailure) {
            return new Ended(otherReason, conversation, tokens, speechSeconds, spokenCharacters, connectedAt, endedAt,
                    events, otherFailure);
        }

        /** The payload of the conversation's end event (the end tool's details), or empty. */
        public java.util.Map<?, ?> endDetails() {
            for (int i = events.size() - 1; i >= 0; i--) {
                if ("rtf-call-ended".equals(events.get(i).get("type"))
                        && events.get(i).get("payload") instanceof java.util.Map<?, ?> payload) {
                    return payload;
                }
            }
            return java.util.Map.of();
        }
    }

    private sealed interface Out {
    }

    private record Frame(byte[] bytes) implements Out {
    }

    private record SentenceEnd() implements Out {
    }

    private static final class Utterance {
        final String id;
        /** What it says (a recording's transcript once the recording is loaded). */
        String text;
        final Instant askedAt;
        final Deque<byte[]> audio = new ArrayDeque<>();
        /** Its words on its audio, when the voice gives them. */
        final List<HeardText.Word> words = new ArrayList<>();
        boolean heard;
        boolean done;
        long startMs = -1;

        Utterance(String id, String text, Instant askedAt) {
            this.id = id;
            this.text = text;
            this.askedAt = askedAt;
        }
    }

    /** One agent turn: the engine's turn, what it says, and how far its audio got. */
    private final class Answer {
        final int id;
        final AgentEngine.Turn turn;
        final String userText;
        final Deque<Utterance> utterances = new ArrayDeque<>();
        final Deque<Out> out = new ArrayDeque<>();
        final List<HeardText.Sentence> sentences = new ArrayList<>();
        final Framer framer = new Framer(frameBytes);
        int utteranceSeq;
        int outputsSeen;
        int recordingsSeen;
        long queuedMs;
        boolean finished;
        boolean speaking;
        String endCall;
        Cancellable stream;
        Instant askedAt;
        /** When the model was last asked and has not said anything back yet (null otherwise). */
        Instant modelSilentSince;
        Instant firstTextAt;
        Instant firstAudioAt;
        /** Said whatever the line carries (a message left on a voicemail: its beeps and echoes are no barge-in). */
        boolean uninterruptible;

        Answer(int id, AgentEngine.Turn turn, String userText) {
            this.id = id;
            this.turn = turn;
            this.userText = userText;
        }

        boolean drained() {
            return finished && utterances.isEmpty() && out.isEmpty();
        }
    }

    private final Parts parts;
    private final CallLoop loop;
    private final MediaChannel media;
    private final Consumer<Ended> onEnd;
    private final VoiceActivity activity;
    private final Playout playout = Playout.standard();
    private final int frameBytes;
    /** The caller's audio is 16-bit PCM (a browser's), not μ-law (a phone's). */
    private final boolean pcm;
    private final int vadSamples;
    private final CallLog log;
    /** The agent's frames sent to the carrier and not yet played, one per 20 ms of the call (the recording's right). */
    private final Deque<byte[]> playing = new ArrayDeque<>();
    private final byte[] silentFrame;
    private short[] vadWindow;
    private int vadFill;
    private TurnTaking.State state = TurnTaking.State.INITIAL;
    private ConversationState conversation;
    private TokenUsage tokens = TokenUsage.ZERO;
    private Answer answer;
    /** The caller cannot barge in (an uninterruptible answer is being spoken): shown as rtf-user-mute-*. */
    private boolean muted;
    private int answerSeq;
    private AutoCloseable ticker;
    private Instant connectedAt;
    private Instant speechStartedAt;
    private Instant speechStoppedAt;
    private String failure;
    private Instant failedAt;
    private boolean ended;
    /** The callee's first turn is still to be classified (voicemail detection on, nothing decided yet). */
    private boolean voicemailOpen;
    /** A voicemail was detected: the call now only leaves its message (or has ended). */
    private Instant voicemailAt;
    private boolean messageLeft;
    /** What the carrier's answering-machine detection said (acted on once). */
    private String carrierVerdict;

    private final Moves moves;
    private final double speechBefore;
    private final long charactersBefore;

    public VoiceSession(Parts parts, ConversationState start, Consumer<Ended> onEnd) {
        this(parts, start, onEnd, Moves.NONE);
    }

    /** A session that may continue a call another replica let go ({@code moves.resumed()}), or be moved itself. */
    public VoiceSession(Parts parts, ConversationState start, Consumer<Ended> onEnd, Moves moves) {
        this.parts = parts;
        this.moves = moves;
        this.loop = parts.loop();
        this.media = parts.media();
        this.onEnd = onEnd;
        this.conversation = start;
        this.frameBytes = media.format().bytes(FRAME_MS);
        this.pcm = media.format().encoding() == dev.voiceagent.domain.audio.AudioFormat.Encoding.PCM16LE;
        this.vadSamples = media.format().sampleRate() * parts.vadWindowMillis() / 1000;
        this.vadWindow = new short[vadSamples];
        this.activity = new VoiceActivity(parts.activity(), Duration.ofMillis(parts.vadWindowMillis()));
        this.log = new CallLog(loop, media);
        this.silentFrame = new byte[frameBytes];
        java.util.Arrays.fill(silentFrame, silence());
        this.voicemailOpen = parts.voicemail() != null;
        CallCheckpoint resumed = moves.resumed();
        if (resumed != null) { // the call goes on where its last finished turn left it
            this.conversation = resumed.conversation();
            this.tokens = resumed.tokens();
            this.log.restore(resumed.events());
            this.voicemailOpen = false;
        }
        this.speechBefore = resumed == null ? 0 : resumed.speechSeconds();
        this.charactersBefore = resumed == null ? 0 : resumed.spokenCharacters();
    }

    // ---- what the carrier sends (on the loop) ----

    /** The media connected: the agent opens the call. */
    public void connected() {
        connectedAt = moves.resumed() != null && moves.resumed().connectedAt() != null ? moves.resumed().connectedAt()
                : loop.now();
        ticker = loop.every(TICK, this::tick);
        decide(new VoiceEvent.Connected(connectedAt));
    }

    @Override
    /** A frame of the caller's audio. */
    public void audio(byte[] frame) {
        if (ended) {
            return;
        }
        parts.stt().audio(frame);
        if (parts.recording() != null) {
            byte[] agent = playing.pollFirst();
            parts.recording().frame(frame, agent == null ? silentFrame : agent);
        }
        short[] samples = pcm ? dev.voiceagent.domain.audio.Pcm16.samples(frame) : G711.decode(frame);
        int i = 0;
        while (i < samples.length) {
            int n = Math.min(samples.length - i, vadSamples - vadFill);
            System.arraycopy(samples, i, vadWindow, vadFill, n);
            vadFill += n;
            i += n;
            if (vadFill == vadSamples) {
                short[] window = vadWindow;
                vadWindow = new short[vadSamples];
                vadFill = 0;
                double volume = Loudness.volume(window);
                Instant at = loop.now();
                parts.vad().window(window, p -> loop.execute(() -> voiced(p, volume, at)));
            }
        }
    }

    @Override
    public void dtmf(String digit) {
        if (!ended) {
            log.add("rtf-user-dtmf", java.util.Map.of("digit", digit));
            decide(new VoiceEvent.Dtmf(loop.now(), digit));
        }
    }

    @Override
    /** The carrier played the audio up to this mark. */
    public void marked(String name) {
        if (!ended && playout.marked(name, loop.now())) {
            pump();
        }
    }

    @Override
    /** The carrier's media stopped (the caller hung up, or the socket closed). */
    public void stopped() {
        if (!ended) {
            decide(new VoiceEvent.Hungup(loop.now()));
        }
    }

    @Override
    /** The socket closed without the carrier saying the media stopped: a carrier that re-streams gets the call back. */
    public void lost() {
        if (media.resumable()) {
            move("stream_lost");
        } else {
            stopped();
        }
    }

    /**
     * This replica drains: a call whose carrier re-streams it is let go now (its checkpoint kept, its stream closed),
     * to be taken over by another replica; any other call stays until it ends.
     */
    public void handOver() {
        if (!ended && media.resumable()) {
            move("handed_over");
        }
    }

    /**
     * The carrier's answering-machine detection decided (Twilio's asynchronous AMD), on a call whose workflow detects
     * voicemail, while the callee's first exchange is still going on: a person is answered without asking the model;
     * a machine (or a fax) is handled as the workflow says, its message left once the line is quiet after the beep.
     * A verdict is acted on once.
     */
    public void carrierAmd(String verdict) {
        if (ended || carrierVerdict != null) {
            return;
        }
        carrierVerdict = verdict;
        log.add("rtf-carrier-amd", java.util.Map.of("answered_by", verdict.toLowerCase(java.util.Locale.ROOT)));
        if (parts.voicemail() == null || voicemailAt != null || conversation.userTurns() > 1) {
            return; // kept in the log: a machine still makes the call's outcome voicemail when it ends
        }
        switch (verdict) {
            case "HUMAN" -> voicemailOpen = false; // no need to ask the model about the first turn
            case "MACHINE", "MACHINE_AFTER_GREETING", "FAX" -> voicemail("carrier_amd", null);
            default -> {
                // unknown: the session's own detection goes on
            }
        }
    }

    /** Where the call stands after its last finished turn. */
    private CallCheckpoint checkpoint(int moved) {
        return new CallCheckpoint(conversation, log.events(), tokens, speechBefore + parts.stt().seconds(),
                charactersBefore + parts.tts().characters(), connectedAt,
                (moves.resumed() == null ? 0 : moves.resumed().moves()) + moved);
    }

    /** The call leaves this replica: nothing more is said or heard here, and the run is not finished. */
    private void move(String why) {
        if (ended) {
            return;
        }
        ended = true;
        state = new TurnTaking.State(TurnTaking.Phase.ENDED, state.connectedAt(), loop.now(), "", false, null, 0);
        close(ticker);
        if (answer != null && answer.stream != null) {
            answer.stream.cancel();
        }
        parts.stt().close();
        parts.tts().close();
        parts.vad().close();
        log.add("rtf-call-moved", java.util.Map.of("reason", why));
        media.close(why);
        moves.moved().accept(checkpoint(1));
    }

    /** Whether the call is over. */
    public boolean isEnded() {
        return ended;
    }

    // ---- the providers' events (on the loop) ----

    private void voiced(double probability, double volume, Instant at) {
        if (ended) {
            return;
        }
        activity.window(probability, volume, at).ifPresent(event -> {
            if (event instanceof VoiceEvent.SpeechStarted) {
                speechStartedAt = at;
            } else if (event instanceof VoiceEvent.SpeechStopped) {
                speechStoppedAt = at;
            }
            decide(event);
        });
    }

    /** A transcript from speech-to-text. */
    public void transcript(String text, boolean isFinal) {
        if (ended) {
            return;
        }
        if (isFinal && text != null && !text.isBlank()) {
            log.add("rtf-user-transcription", java.util.Map.of("text", text, "final", true));
        } else if (text != null && !text.isBlank()) {
            log.show("rtf-user-transcription", java.util.Map.of("text", text, "final", false));
        }
        decide(new VoiceEvent.Transcript(loop.now(), text, isFinal));
    }

    /** Audio of an utterance from text-to-speech. */
    public void voiceAudio(String utterance, byte[] audio) {
        Utterance u = utterance(utterance);
        if (u != null) {
            if (answer.firstAudioAt == null) {
                answer.firstAudioAt = loop.now();
            }
            u.heard = true;
            u.audio.addLast(audio);
            pump();
        }
    }

    /** Where an utterance's words fall on its audio. */
    public void voiceWords(String utterance, List<HeardText.Word> words) {
        Utterance u = utterance(utterance);
        if (u != null) {
            u.words.addAll(words);
        }
    }

    /** An utterance's audio is complete. */
    public void voiceDone(String utterance) {
        Utterance u = utterance(utterance);
        if (u != null) {
            u.heard = true;
            u.done = true;
            pump();
        }
    }

    private Utterance utterance(String id) {
        if (ended || answer == null) {
            return null;
        }
        for (Utterance u : answer.utterances) {
            if (u.id.equals(id)) {
                return u;
            }
        }
        return null; // a cancelled answer's late audio
    }

    // ---- turn-taking ----

    private void tick() {
        if (ended) {
            return;
        }
        pump();
        if (failure != null && Duration.between(failedAt, loop.now()).compareTo(FALLBACK_LIMIT) > 0) {
            end(PIPELINE_ERROR); // the fallback line never came
            return;
        }
        if (stalled()) {
            return;
        }
        if (voicemailChecks()) {
            return;
        }
        decide(new VoiceEvent.Tick(loop.now()));
    }

    /**
     * The voicemail rules on each tick: a callee who talks on without a pause past the long-speech limit is a voicemail
     * greeting; once one was detected and the line has been quiet for {@link #AFTER_GREETING}, the message is left.
     * True when the tick is spent.
     */
    private boolean voicemailChecks() {
        Instant now = loop.now();
        boolean calleeSpeaking = speechStartedAt != null && (speechStoppedAt == null
                || speechStoppedAt.isBefore(speechStartedAt));
        if (voicemailOpen && calleeSpeaking && Duration.between(speechStartedAt, now)
                .compareTo(parts.voicemail().detection().longSpeech()) > 0) {
            voicemail("long_speech", null);
            return true;
        }
        Answer a = answer;
        if (a != null && a.turn == null && a.userText != null && a.askedAt != null
                && Duration.between(a.askedAt, now).compareTo(CLASSIFY_WAIT) > 0) {
            log.add("rtf-pipeline-error", java.util.Map.of("message", "voicemail detection: no verdict within "
                    + CLASSIFY_WAIT.toSeconds() + " s"));
            classified(a, a.userText, null, null);
        }
        if (voicemailAt == null) {
            return false;
        }
        Instant quietSince = speechStoppedAt == null || speechStoppedAt.isBefore(voicemailAt) ? voicemailAt
                : speechStoppedAt;
        if (!messageLeft && !calleeSpeaking && Duration.between(quietSince, now).compareTo(AFTER_GREETING) >= 0) {
            messageLeft = true;
            String message = parts.voicemail().detection().message();
            Answer m = new Answer(++answerSeq, null, null);
            m.finished = true;
            m.uninterruptible = true;
            m.endCall = VoicemailDetection.DISPOSITION;
            answer = m;
            sayAll(m, message); // sentence by sentence: the first is heard sooner
            log.add("rtf-bot-text", java.util.Map.of("text", message, "voicemail", true));
            conversation = conversation.cutShort(null, message);
        }
        return false;
    }

    /**
     * The callee is a voicemail: what the agent was saying stops, then the call hangs up, or waits for the greeting
     * to end and leaves the workflow's message (then hangs up). Either way it ends as voicemail_detected.
     */
    private void voicemail(String detectedBy, String greeting) {
        voicemailOpen = false;
        if (ended || voicemailAt != null) {
            return;
        }
        VoicemailDetection detection = parts.voicemail().detection();
        log.add("rtf-voicemail-detected", java.util.Map.of("detected_by", detectedBy, "action",
                detection.action().name().toLowerCase(java.util.Locale.ROOT)));
        if (greeting != null) {
            conversation = conversation.cutShort(greeting, null);
        }
        if (detection.action() == VoicemailDetection.Action.HANG_UP) {
            end(VoicemailDetection.DISPOSITION);
            return;
        }
        voicemailAt = loop.now();
        Answer a = answer;
        answer = null;
        if (a != null && (a.speaking || a.stream != null || !a.utterances.isEmpty())) { // the agent was speaking
            media.clear();
            playing.clear();
            playout.clear(voicemailAt);
            if (a.stream != null) {
                a.stream.cancel();
            }
            a.utterances.forEach(u -> parts.tts().cancel(u.id));
        }
    }

    /**
     * The callee's first turn, classified before it is answered: a person is answered as usual, a voicemail greeting
     * is handled as the workflow says. While the model decides the agent says nothing; if it cannot decide, the
     * callee is taken for a person.
     */
    private void classify(String calleeSaid) {
        voicemailOpen = false;
        Answer waiting = new Answer(++answerSeq, null, calleeSaid);
        waiting.askedAt = loop.now();
        answer = waiting;
        Voicemail voicemail = parts.voicemail();
        parts.model().complete(voicemail.model(), voicemail.detection().question(calleeSaid)).subscribe().with(
                reply -> loop.execute(() -> classified(waiting, calleeSaid, reply.text(), reply.usage())),
                failure -> loop.execute(() -> {
                    log.add("rtf-pipeline-error", java.util.Map.of("message", "voicemail detection: "
                            + failure.getMessage()));
                    classified(waiting, calleeSaid, null, null);
                }));
    }

    private void classified(Answer waiting, String calleeSaid, String verdict, TokenUsage usage) {
        if (ended || voicemailAt != null) {
            return;
        }
        if (usage != null) {
            tokens = tokens.plus(usage);
        }
        if (VoicemailDetection.verdict(verdict) == VoicemailDetection.Verdict.VOICEMAIL) {
            voicemail("classifier", calleeSaid);
        } else if (answer == waiting) {
            answer = null;
            respond(calleeSaid);
        } // else the callee spoke on meanwhile: its words joined the next turn, answered as usual
    }

    /**
     * A provider that stopped answering mid-turn (the model's first words, a sentence's first audio) is a provider
     * that failed: the caller hears the fallback line rather than silence until the idle rule.
     */
    private boolean stalled() {
        Answer a = answer;
        if (a == null || failure != null) {
            return false;
        }
        Instant now = loop.now();
        if (a.modelSilentSince != null && Duration.between(a.modelSilentSince, now).compareTo(MODEL_WAIT) > 0) {
            failed("language model: no answer within " + MODEL_WAIT.toSeconds() + " s");
            return true;
        }
        Utterance head = a.utterances.peekFirst();
        if (head != null && !head.heard && Duration.between(head.askedAt, now).compareTo(VOICE_WAIT) > 0) {
            failed("text-to-speech: no audio within " + VOICE_WAIT.toSeconds() + " s");
            return true;
        }
        return false;
    }

    private void decide(VoiceEvent event) {
        if (ended || failure != null && !(event instanceof VoiceEvent.Hungup)) {
            return; // a failed call only plays its fallback line out (or the caller hangs up)
        }
        TurnTaking.Decision decision = parts.rules().decide(state, event);
        state = decision.state();
        for (VoiceCommand command : decision.commands()) {
            if (ended) {
                return;
            }
            if (voicemailAt != null && !(command instanceof VoiceCommand.Hangup)) {
                continue; // a voicemail: nothing is answered or prompted; only its message is said
            }
            switch (command) {
                case VoiceCommand.Open open -> open();
                case VoiceCommand.Respond respond -> {
                    if (voicemailOpen) {
                        classify(respond.userText());
                    } else {
                        respond(respond.userText());
                    }
                }
                case VoiceCommand.FinalizeTranscript f -> parts.stt().finalizeNow();
                case VoiceCommand.Interrupt interrupt -> interrupt();
                case VoiceCommand.PromptIdle idle -> prompt();
                case VoiceCommand.Hangup hangup -> end(hangup.reason());
            }
        }
    }

    /**
     * The agent opens the call: a pre-recorded greeting is played from its recording (its transcript is what the
     * conversation says was said); when it cannot be played, the greeting is skipped as text chat skips it (the model
     * speaks first) and the log says why. Otherwise the engine's opening turn.
     */
    private void open() {
        if (moves.resumed() != null) { // the call continues here: a short line, then the caller speaks
            Answer a = new Answer(++answerSeq, null, null);
            answer = a;
            a.finished = true;
            say(a, RESUME_LINE);
            log.add("rtf-call-resumed", java.util.Map.of("text", RESUME_LINE, "moves", moves.resumed().moves()));
            return;
        }
        java.util.Optional<String> recording = parts.engine().greetingRecording();
        if (recording.isEmpty()) {
            begin(parts.engine().open(conversation), null);
            return;
        }
        Answer waiting = new Answer(++answerSeq, null, null); // the agent is about to speak: nothing to cancel yet
        answer = waiting;
        parts.prompts().apply(recording.get()).subscribe().with(
                prompt -> loop.execute(() -> {
                    if (answer == waiting && !ended) {
                        greet(prompt);
                    }
                }),
                failure -> loop.execute(() -> {
                    if (answer == waiting && !ended) {
                        log.add("rtf-pipeline-error", java.util.Map.of("message", "the greeting's recording "
                                + recording.get() + " cannot be played: " + failure.getMessage()));
                        begin(parts.engine().open(conversation), null);
                    }
                }));
    }

    private void greet(RecordedPrompts.Prompt prompt) {
        Answer a = new Answer(++answerSeq, parts.engine().openRecorded(conversation, prompt.transcript()), null);
        answer = a;
        Utterance u = new Utterance("a" + a.id + "rec", prompt.transcript(), loop.now());
        a.utterances.addLast(u);
        log.add("rtf-bot-text", java.util.Map.of("text", prompt.transcript(), "recording", true));
        voiceAudio(u.id, prompt.audio());
        voiceDone(u.id);
        step(a);
    }

    private void respond(String userText) {
        if (conversation.ended()) {
            end(conversation.endReason());
            return;
        }
        try {
            begin(parts.engine().reply(conversation, userText), userText);
        } catch (RuntimeException limit) { // the turn limit: the conversation is over
            end(PIPELINE_ERROR);
        }
    }

    private void prompt() {
        Answer a = new Answer(++answerSeq, null, null);
        answer = a;
        a.finished = true;
        say(a, IDLE_PROMPT);
        log.add("rtf-bot-text", java.util.Map.of("text", IDLE_PROMPT));
    }

    private void begin(AgentEngine.Turn turn, String userText) {
        Answer a = new Answer(++answerSeq, turn, userText);
        answer = a;
        step(a);
    }

    /** Runs the engine's turn on until it waits for the model or a tool, or finishes. */
    private void step(Answer a) {
        if (a != answer || ended) {
            return;
        }
        Step step = a.turn.next();
        sayNewOutputs(a);
        switch (step) {
            case Step.AskModel ask -> ask(a, ask);
            case Step.RunTool tool -> {
                AutoCloseable filler = fillerAfter(a);
                parts.tools().run(a.turn, tool).subscribe().with(
                        done -> loop.execute(() -> {
                            close(filler);
                            step(a);
                        }),
                        failed -> loop.execute(() -> {
                            close(filler);
                            a.turn.acceptToolResult(tool.call().id(), "The tool failed: " + failed.getMessage());
                            step(a);
                        }));
            }
            case Step.Finished finished -> {
                a.finished = true;
                AgentEngine.TurnResult result = finished.result();
                conversation = result.state();
                tokens = tokens.plus(result.usage());
                log.turn(a.userText, result);
                a.endCall = result.state().ended() ? result.state().endReason() : null;
                if (a.endCall == null) {
                    moves.checkpoints().accept(checkpoint(0));
                }
                pump();
            }
        }
    }

    /** A tool still running after {@link #FILLER_AFTER} with nothing playing: the caller hears a short filler line. */
    private AutoCloseable fillerAfter(Answer a) {
        AutoCloseable[] timer = new AutoCloseable[1];
        timer[0] = loop.every(FILLER_AFTER, () -> {
            close(timer[0]);
            if (a == answer && !ended && a.utterances.isEmpty() && a.out.isEmpty()) {
                say(a, FILLER);
            }
        });
        return timer[0];
    }

    private static void close(AutoCloseable timer) {
        try {
            if (timer != null) {
                timer.close();
            }
        } catch (Exception ignored) {
            // a loop's timer: nothing to release
        }
    }

    private void ask(Answer a, Step.AskModel ask) {
        SpeakableText chunker = new SpeakableText();
        StringBuilder streamed = new StringBuilder();
        a.askedAt = loop.now();
        a.modelSilentSince = a.askedAt;
        a.stream = parts.model().stream(parts.llm(), ask.request()).subscribe().with(
                delta -> loop.execute(() -> {
                    if (a != answer || ended) {
                        return;
                    }
                    a.modelSilentSince = null;
                    switch (delta) {
                        case ModelDelta.Text text -> {
                            if (a.firstTextAt == null) {
                                a.firstTextAt = loop.now();
                            }
                            streamed.append(text.delta());
                            chunker.append(text.delta()).forEach(sentence -> say(a, sentence));
                        }
                        case ModelDelta.Done done -> {
                            chunker.finish().forEach(sentence -> say(a, sentence));
                            ModelReply reply = done.reply();
                            if (streamed.isEmpty() && reply.text() != null && !reply.text().isBlank()) {
                                sayAll(a, reply.text()); // a provider that gave the text only at the end
                            }
                            a.turn.accept(reply);
                            a.outputsSeen = a.turn.outputs().size();
                            step(a);
                        }
                    }
                }),
                failed -> loop.execute(() -> {
                    if (a == answer && !ended) {
                        failed("language model: " + failed.getMessage());
                    }
                }));
    }

    /**
     * Speaks what the engine said that the model did not stream (a greeting, a tool's last words), and plays the
     * recordings it named (a transition's speech of type audio), each in its place.
     */
    private void sayNewOutputs(Answer a) {
        List<String> outputs = a.turn.outputs();
        List<AgentEngine.Recorded> recordings = a.turn.recordings();
        for (int i = a.outputsSeen; i <= outputs.size(); i++) {
            while (a.recordingsSeen < recordings.size() && recordings.get(a.recordingsSeen).at() <= i) {
                play(a, recordings.get(a.recordingsSeen++).recordingId());
            }
            if (i < outputs.size()) {
                sayAll(a, outputs.get(i));
            }
        }
        a.outputsSeen = outputs.size();
    }

    /**
     * A recording in the answer's place: its audio (converted to the call's format, from the prompts' cache) when it
     * has loaded; one that cannot be played is skipped with the reason in the log, the answer goes on.
     */
    private void play(Answer a, String recordingId) {
        Utterance u = new Utterance("a" + a.id + "r" + ++a.utteranceSeq, "", loop.now());
        a.utterances.addLast(u);
        parts.prompts().apply(recordingId).subscribe().with(
                prompt -> loop.execute(() -> {
                    if (utterance(u.id) != null) {
                        u.text = prompt.transcript() == null ? "" : prompt.transcript();
                        log.add("rtf-bot-text", java.util.Map.of("text", u.text, "recording", true));
                        voiceAudio(u.id, prompt.audio());
                        voiceDone(u.id);
                    }
                }),
                failure -> loop.execute(() -> {
                    if (utterance(u.id) != null) {
                        log.add("rtf-pipeline-error", java.util.Map.of("message", "the recording " + recordingId
                                + " cannot be played: " + failure.getMessage()));
                        voiceDone(u.id);
                    }
                }));
    }

    private void sayAll(Answer a, String text) {
        SpeakableText chunker = new SpeakableText();
        chunker.append(text).forEach(s -> say(a, s));
        chunker.finish().forEach(s -> say(a, s));
    }

    private void say(Answer a, String sentence) {
        Utterance u = new Utterance("a" + a.id + "u" + ++a.utteranceSeq, sentence, loop.now());
        a.utterances.addLast(u);
        parts.tts().speak(u.id, sentence);
    }

    /** Moves the answer's audio to the carrier, no further ahead of the caller's ear than the playout allows. */
    private void pump() {
        Answer a = answer;
        if (a == null || ended) {
            return;
        }
        while (!a.utterances.isEmpty()) {
            Utterance u = a.utterances.peekFirst();
            while (!u.audio.isEmpty()) {
                for (byte[] frame : a.framer.push(u.audio.pollFirst())) {
                    if (u.startMs < 0) {
                        u.startMs = a.queuedMs;
                    }
                    a.out.addLast(new Frame(frame));
                    a.queuedMs += FRAME_MS;
                }
            }
            if (!u.done) {
                break;
            }
            byte[] last = a.framer.flush(silence());
            if (last.length > 0) {
                if (u.startMs < 0) {
                    u.startMs = a.queuedMs;
                }
                a.out.addLast(new Frame(last));
                a.queuedMs += FRAME_MS;
            }
            if (u.startMs >= 0) {
                a.sentences.add(new HeardText.Sentence(u.text, u.startMs, a.queuedMs, u.words));
                a.out.addLast(new SentenceEnd());
            }
            a.utterances.pollFirst();
        }
        Instant now = loop.now();
        while (!a.out.isEmpty()) {
            Out next = a.out.peekFirst();
            if (next instanceof Frame frame) {
                if (playout.roomMs(now) < FRAME_MS) {
                    break;
                }
                a.out.pollFirst();
                media.play(frame.bytes());
                playing.addLast(frame.bytes());
                playout.sent(FRAME_MS, now).ifPresent(media::mark);
                if (!a.speaking) {
                    a.speaking = true;
                    speaking(a, now);
                    if (a != answer || ended) {
                        return;
                    }
                }
            } else {
                a.out.pollFirst();
                playout.sentenceEnd().ifPresent(media::mark);
            }
        }
        if (a.drained() && playout.allPlayed()) {
            playout.clear(now);
            answer = null;
            if (a.speaking) {
                log.show("rtf-bot-stopped-speaking", java.util.Map.of());
                unmute();
            }
            if (failure != null) {
                end(PIPELINE_ERROR); // the fallback line was heard
            } else if (voicemailAt != null) {
                end(VoicemailDetection.DISPOSITION); // the message was left
            } else {
                decide(new VoiceEvent.AgentDone(now, a.endCall));
            }
        }
    }

    private static java.util.Map<String, Object> ttfb(Duration took, String processor, String model) {
        java.util.Map<String, Object> payload = new java.util.LinkedHashMap<>();
        payload.put("ttfb_seconds", took.toMillis() / 1000.0);
        payload.put("processor", processor);
        payload.put("model", model);
        return payload;
    }

    private void speaking(Answer a, Instant now) {
        log.show("rtf-bot-started-speaking", java.util.Map.of());
        if (a.turn != null && speechStoppedAt != null && a.userText != null) {
            java.util.Map<String, Object> latency = new java.util.LinkedHashMap<>();
            parts.metrics().answered(Duration.between(speechStoppedAt, now));
            latency.put("kind", "voice_latency_breakdown");
            // the reference's field (its QA metrics average it), then this service's breakdown
            latency.put("latency_seconds", Duration.between(speechStoppedAt, now).toMillis() / 1000.0);
            latency.put("user_stop_to_bot_started_ms", Duration.between(speechStoppedAt, now).toMillis());
            latency.put("llm_first_text_ms", a.firstTextAt == null || a.askedAt == null ? null
                    : Duration.between(a.askedAt, a.firstTextAt).toMillis());
            latency.put("tts_first_audio_ms", a.firstAudioAt == null || a.askedAt == null ? null
                    : Duration.between(a.firstTextAt == null ? a.askedAt : a.firstTextAt, a.firstAudioAt).toMillis());
            log.add("rtf-latency-measured", latency);
            // time to first byte per stage, as the reference's dashboard shows them
            if (a.askedAt != null && a.firstTextAt != null) {
                log.add("rtf-ttfb-metric", ttfb(Duration.between(a.askedAt, a.firstTextAt), "llm",
                        parts.llm() == null ? null : parts.llm().model()));
            }
            if (a.firstAudioAt != null && (a.firstTextAt != null || a.askedAt != null)) {
                log.add("rtf-ttfb-metric", ttfb(Duration.between(a.firstTextAt == null ? a.askedAt : a.firstTextAt,
                        a.firstAudioAt), "tts", null));
            }
        }
        // an idle prompt may be answered over; the fallback line before a failed call ends may not
        boolean interruptible = a.uninterruptible ? false : a.turn == null ? failure == null : a.turn.interruptible();
        if (!interruptible && !muted) {
            // the caller cannot cut in until this answer is over: the reference dashboard warns one who tries
            muted = true;
            log.show("rtf-user-mute-started", java.util.Map.of());
        }
        decide(new VoiceEvent.AgentSpeaking(now, interruptible));
    }

    private void unmute() {
        if (muted) {
            muted = false;
            log.show("rtf-user-mute-stopped", java.util.Map.of());
        }
    }

    private byte silence() {
        return media.format().encoding() == dev.voiceagent.domain.audio.AudioFormat.Encoding.MULAW ? (byte) 0xFF : 0;
    }

    /** The caller spoke over the agent: the carrier's queue, the model and the voice stop; what was heard stays. */
    private void interrupt() {
        Answer a = answer;
        answer = null;
        Instant now = loop.now();
        media.clear();
        playing.clear();
        long heardMs = playout.clear(now);
        if (a == null) {
            return;
        }
        if (a.stream != null) {
            a.stream.cancel();
        }
        a.utterances.forEach(u -> parts.tts().cancel(u.id));
        List<HeardText.Sentence> said = new ArrayList<>(a.sentences);
        Utterance current = a.utterances.peekFirst();
        if (current != null && current.startMs >= 0) { // the sentence whose audio was still coming: its end unknown
            said.add(new HeardText.Sentence(current.text, current.startMs, Long.MAX_VALUE, current.words));
        }
        String heard = HeardText.of(said, heardMs);
        java.util.Map<String, Object> payload = new java.util.LinkedHashMap<>();
        payload.put("heard_text", heard);
        payload.put("heard_ms", heardMs);
        payload.put("barge_in_ms", speechStartedAt == null ? null : Duration.between(speechStartedAt, now).toMillis());
        if (speechStartedAt != null) {
            parts.metrics().interrupted(Duration.between(speechStartedAt, now));
        }
        log.add("rtf-interruption", payload);
        if (a.speaking) {
            log.show("rtf-bot-stopped-speaking", java.util.Map.of("interrupted", true));
            unmute();
        }
        if (a.turn == null) {
            if (a.userText != null) {
                state = state.carrying(a.userText); // still being classified: the callee's words join its next turn
            }
            return; // an idle prompt
        }
        if (a.finished) {
            conversation = conversation.interrupted(heard);
        } else if (heard.isBlank()) {
            state = state.carrying(a.userText); // nothing of the answer was heard: the caller's words join this turn
        } else {
            conversation = conversation.cutShort(a.userText, heard);
        }
    }

    /** A provider failed mid-call: the caller hears the fallback line if the voice still works, then the call ends. */
    public void failed(String message) {
        if (ended) {
            return;
        }
        failure = message;
        failedAt = loop.now();
        parts.metrics().providerFailed(message.startsWith("text-to-speech") ? "tts"
                : message.startsWith("speech-to-text") ? "stt" : "llm");
        // fatal: the call ends (at once without a voice, after the fallback line otherwise)
        log.add("rtf-pipeline-error", java.util.Map.of("message", message, "fatal", true));
        if (message.startsWith("text-to-speech")) {
            end(PIPELINE_ERROR);
            return;
        }
        Answer a = answer;
        if (a != null && a.stream != null) {
            a.stream.cancel();
        }
        if (a != null) {
            a.utterances.forEach(u -> parts.tts().cancel(u.id));
        }
        media.clear();
        playing.clear();
        playout.clear(loop.now());
        Answer last = new Answer(++answerSeq, null, null);
        last.finished = true;
        answer = last;
        say(last, FALLBACK_LINE);
    }

    private void end(String why) {
        if (ended) {
            return;
        }
        // once a voicemail was detected the call ends as one, whoever hangs up (machines hang up too)
        String reason = voicemailAt != null && !PIPELINE_ERROR.equals(why) ? VoicemailDetection.DISPOSITION : why;
        ended = true;
        state = new TurnTaking.State(TurnTaking.Phase.ENDED, state.connectedAt(), loop.now(), "", false, null, 0);
        close(ticker);
        if (answer != null && answer.stream != null) {
            answer.stream.cancel();
        }
        parts.stt().close();
        parts.tts().close();
        parts.vad().close();
        if (parts.recording() != null) {
            while (!playing.isEmpty()) { // the carrier played these (a goodbye's last marks came back) after the
                parts.recording().frame(silentFrame, playing.pollFirst()); // caller's last frame reached us
            }
        }
        log.ended(reason);
        if (!TRANSFER.equals(reason)) { // closing the stream first would hang up before the carrier transferred
            media.close(reason);
        }
        onEnd.accept(new Ended(reason, conversation, tokens, speechBefore + parts.stt().seconds(),
                charactersBefore + parts.tts().characters(), connectedAt, loop.now(), log.events(), failure));
    }
}
