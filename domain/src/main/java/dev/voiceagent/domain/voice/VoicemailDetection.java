package dev.voiceagent.domain.voice;

import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A workflow's voicemail detection on outbound calls (its configurations' {@code voicemail_detection}, the
 * reference's fields: enabled, use_workflow_llm, provider, model, api_key, system_prompt, long_speech_timeout): the
 * callee's first turn is classified by a language model as a person or a voicemail greeting before the agent answers
 * it, and a callee who talks on without a pause for longer than {@code long_speech_timeout} is a voicemail greeting.
 * Beyond the reference, what to do then: {@code action} {@code hang_up} (the reference's only behaviour, the default)
 * or {@code leave_message}, which says {@code message} once the greeting (and its beep) has ended, then hangs up.
 * Either way the call ends as {@code voicemail_detected}.
 */
public record VoicemailDetection(boolean enabled, boolean useWorkflowLlm, String provider, String model, String apiKey,
        String systemPrompt, Duration longSpeech, Action action, String message) {

    public static final String DISPOSITION = "voicemail_detected";
    public static final VoicemailDetection OFF = new VoicemailDetection(false, true, null, null, null, null,
            Duration.ofSeconds(8), Action.HANG_UP, null);
    /** The classifier's instructions when the workflow gives none (as pipecat's VoicemailDetector's). */
    public static final String DEFAULT_PROMPT = """
            You are a voicemail detection classifier for an OUTBOUND calling system. A bot has called a phone number \
            and you need to determine if a human answered or if the call went to voicemail based on the provided text.

            HUMAN ANSWERED (respond "CONVERSATION"): personal greetings ("Hello?", "Hi, this is John"), questions \
            ("Who is this?"), natural conversational responses, interruptions.

            VOICEMAIL SYSTEM (respond "VOICEMAIL"): automated voicemail greetings ("Hi, you've reached [name], please \
            leave a message"), carrier messages ("The number you have dialed is not available"), professional \
            voicemail ("This is [name], I'm not available right now"), any mention of leaving a message or a beep.

            Respond with ONLY "CONVERSATION" if a person answered, or "VOICEMAIL" if it's voicemail/recording.""";

    /** What to do with a voicemail. */
    public enum Action {
        HANG_UP, LEAVE_MESSAGE
    }

    /** The caller's verdict. */
    public enum Verdict {
        CONVERSATION, VOICEMAIL
    }

    public VoicemailDetection {
        if (enabled && action == Action.LEAVE_MESSAGE && (message == null || message.isBlank())) {
            throw new DomainRuleViolation("voicemail_detection: leave_message needs the message to leave");
        }
        if (longSpeech.isNegative() || longSpeech.isZero() || longSpeech.compareTo(Duration.ofSeconds(60)) > 0) {
            throw new DomainRuleViolation("voicemail_detection.long_speech_timeout is between 0 and 60 seconds");
        }
    }

    /** The workflow's setting, from its configurations (absent or disabled: {@link #OFF}). */
    public static VoicemailDetection of(Map<String, Object> configurations) {
        Object raw = configurations == null ? null : configurations.get("voicemail_detection");
        if (!(raw instanceof Map<?, ?> c) || !Boolean.TRUE.equals(c.get("enabled"))) {
            return OFF;
        }
        Object timeout = c.get("long_speech_timeout");
        double seconds = timeout instanceof Number n ? n.doubleValue() : 8.0;
        String action = text(c.get("action"));
        Action chosen = action == null ? Action.HANG_UP : switch (action.toLowerCase(Locale.ROOT)) {
            case "hang_up" -> Action.HANG_UP;
            case "leave_message" -> Action.LEAVE_MESSAGE;
            default -> throw new DomainRuleViolation("voicemail_detection.action is hang_up or leave_message");
        };
        return new VoicemailDetection(true, !Boolean.FALSE.equals(c.get("use_workflow_llm")), text(c.get("provider")),
                text(c.get("model")), text(c.get("api_key")), text(c.get("system_prompt")),
                Duration.ofMillis(Math.round(seconds * 1000)), chosen, text(c.get("message")));
    }

    private static String text(Object value) {
        return value instanceof String s && !s.isBlank() ? s : null;
    }

    /** The classifier's question about the callee's first words. */
    public ModelRequest question(String calleeSaid) {
        return new ModelRequest(List.of(ChatMessage.system(systemPrompt == null ? DEFAULT_PROMPT : systemPrompt),
                ChatMessage.user("Text: " + calleeSaid)), List.of());
    }

    /** The classifier's answer: VOICEMAIL only when it says so (a person is never hung up on by doubt). */
    public static Verdict verdict(String answer) {
        return answer != null && answer.toUpperCase(Locale.ROOT).contains("VOICEMAIL") ? Verdict.VOICEMAIL
                : Verdict.CONVERSATION;
    }
}
