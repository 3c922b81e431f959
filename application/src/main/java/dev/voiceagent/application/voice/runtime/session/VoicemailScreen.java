package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.voice.VoicemailDetection;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Whether an outbound call reached a voicemail: the callee's first turn is classified by a model before it is
 * answered, a callee who talks on past the long-speech limit is a greeting without asking, and the carrier's
 * answering-machine detection decides where it says so. The screen decides and the session acts on each
 * {@link Verdict}: a person is answered as usual; a voicemail is hung up on, or its greeting and beep are waited out and
 * the workflow's message is left once; the call then ends as voicemail_detected whoever hangs up. On the call's loop
 * only.
 */
final class VoicemailScreen {

    /** How long the callee stays silent after a voicemail greeting (its beep included) before the message is left. */
    static final Duration AFTER_GREETING = Duration.ofMillis(1_000);
    /** How long the classifier may take: past it the callee is taken for a person and answered. */
    static final Duration CLASSIFY_WAIT = Duration.ofSeconds(3);

    /** What the screen decided. */
    sealed interface Verdict {
    }

    /**
     * The callee is a person (or the classifier could not tell in time: {@code late}): their first turn, held on
     * {@code ticket} while the model decided, is answered as usual if the call still holds it (a callee who spoke on
     * meanwhile had their words joined to their next turn).
     */
    record Person(Object ticket, String calleeSaid, boolean late) implements Verdict {
    }

    /**
     * A voicemail: what the agent says stops; the greeting's words (when they were its first turn) go into the
     * conversation unanswered; the call hangs up at once, or waits to leave the message.
     */
    record Machine(String greeting, boolean hangUp) implements Verdict {
    }

    /** The greeting and its beep are over: the workflow's message is said once, whatever the line carries. */
    record LeaveMessage(String message) implements Verdict {
    }

    private final Voicemail settings;
    private final LanguageModel model;
    private final CallLoop loop;
    private final CallLog log;
    private final Consumer<Verdict> verdicts;
    /** The callee's first turn is still to be classified (detection on, nothing decided yet). */
    private boolean open;
    /** The callee's first turn held for its verdict: its ticket, its words, since when. */
    private Object held;
    private String heldText;
    private Instant heldSince;
    /** When a voicemail was detected: the call now only leaves its message (or has ended). */
    private Instant detectedAt;
    private boolean messageLeft;
    /** What the carrier's answering-machine detection said (acted on once). */
    private String carrierVerdict;
    private TokenUsage spent = TokenUsage.ZERO;
    private boolean closed;

    /**
     * @param settings the workflow's detection; null when off (inbound calls, a workflow that does not detect)
     * @param resumed whether the call continues from another replica (its first turn is long past)
     * @param verdicts what the session does with each verdict (on the loop)
     */
    VoicemailScreen(Voicemail settings, boolean resumed, LanguageModel model, CallLoop loop, CallLog log,
            Consumer<Verdict> verdicts) {
        this.settings = settings;
        this.model = model;
        this.loop = loop;
        this.log = log;
        this.verdicts = verdicts;
        this.open = settings != null && !resumed;
    }

    /** Whether the callee's next turn is the first one, to be classified before it is answered. */
    boolean screening() {
        return open;
    }

    /** A voicemail was detected: nothing is answered or prompted any more; only its message is said. */
    boolean detected() {
        return detectedAt != null;
    }

    /** Why the call ends: once a voicemail was detected it ends as one whoever hangs up (machines hang up too). */
    String reason(String why) {
        return detected() && !Ended.PIPELINE_ERROR.equals(why) ? VoicemailDetection.DISPOSITION : why;
    }

    /** The classifier's tokens (usage). */
    TokenUsage spent() {
        return spent;
    }

    /**
     * The carrier's answering-machine detection decided (Twilio's asynchronous AMD) while the callee's first exchange
     * is still going on ({@code calleeTurns} at most 1): a person is answered without asking the model; a machine (or
     * a fax) is handled as the workflow says. A verdict is acted on once, and always kept in the log: a machine still
     * makes the call's outcome voicemail when it ends.
     */
    void carrierAmd(String verdict, int calleeTurns) {
        if (carrierVerdict != null) {
            return;
        }
        carrierVerdict = verdict;
        log.add(new FeedbackEvent.CarrierAmd(verdict));
        if (settings == null || detected() || calleeTurns > 1) {
            return;
        }
        switch (verdict) {
            case "HUMAN" -> open = false; // no need to ask the model about the first turn
            case "MACHINE", "MACHINE_AFTER_GREETING", "FAX" -> detected("carrier_amd", null);
            default -> {
                // unknown: the screen's own detection goes on
            }
        }
    }

    /**
     * The callee's first turn, held on {@code ticket} while a model classifies it (the agent says nothing meanwhile);
     * if it cannot decide, the callee is taken for a person.
     */
    void classify(String calleeSaid, Object ticket) {
        open = false;
        held = ticket;
        heldText = calleeSaid;
        heldSince = loop.now();
        model.complete(settings.model(), settings.detection().question(calleeSaid)).subscribe().with(
                reply -> loop.execute(() -> classified(ticket, calleeSaid, reply.text(), reply.usage())),
                failure -> loop.execute(() -> {
                    log.add(FeedbackEvent.PipelineError.warning("voicemail detection: " + failure.getMessage()));
                    classified(ticket, calleeSaid, null, null);
                }));
    }

    private void classified(Object ticket, String calleeSaid, String verdict, TokenUsage usage) {
        if (closed || detected()) {
            return;
        }
        if (usage != null) {
            spent = spent.plus(usage);
        }
        if (VoicemailDetection.verdict(verdict) == VoicemailDetection.Verdict.VOICEMAIL) {
            detected("classifier", calleeSaid);
        } else if (held == ticket) {
            held = null;
            verdicts.accept(new Person(ticket, calleeSaid, false));
        }
    }

    /**
     * The screen's rules on each tick: a callee who talks on without a pause past the long-speech limit is a voicemail
     * greeting; a classifier that does not answer in {@link #CLASSIFY_WAIT} leaves the callee taken for a person; once
     * a voicemail was detected and the line has been quiet for {@link #AFTER_GREETING}, the message is left. True when
     * the tick is spent.
     *
     * @param speechStartedAt when voice activity last heard the callee start, or null
     * @param speechStoppedAt when it last heard the callee stop, or null
     */
    boolean tick(Instant speechStartedAt, Instant speechStoppedAt) {
        Instant now = loop.now();
        boolean calleeSpeaking = speechStartedAt != null && (speechStoppedAt == null
                || speechStoppedAt.isBefore(speechStartedAt));
        if (open && calleeSpeaking && Duration.between(speechStartedAt, now)
                .compareTo(settings.detection().longSpeech()) > 0) {
            detected("long_speech", null);
            return true;
        }
        if (held != null && Duration.between(heldSince, now).compareTo(CLASSIFY_WAIT) > 0) {
            Object ticket = held;
            held = null;
            verdicts.accept(new Person(ticket, heldText, true));
        }
        if (detectedAt == null) {
            return false;
        }
        Instant quietSince = speechStoppedAt == null || speechStoppedAt.isBefore(detectedAt) ? detectedAt
                : speechStoppedAt;
        if (!messageLeft && !calleeSpeaking && Duration.between(quietSince, now).compareTo(AFTER_GREETING) >= 0) {
            messageLeft = true;
            verdicts.accept(new LeaveMessage(settings.detection().message()));
        }
        return false;
    }

    private void detected(String detectedBy, String greeting) {
        open = false;
        if (detected()) {
            return;
        }
        VoicemailDetection detection = settings.detection();
        log.add(new FeedbackEvent.VoicemailDetected(detectedBy, detection.action().name().toLowerCase(Locale.ROOT)));
        boolean hangUp = detection.action() == VoicemailDetection.Action.HANG_UP;
        if (!hangUp) {
            detectedAt = loop.now();
        }
        verdicts.accept(new Machine(greeting, hangUp));
    }

    /** The call ended: a verdict that comes later changes nothing. */
    void close() {
        closed = true;
    }
}
