package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.TokenUsage;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a call leaves when its session ends: why it ended (the run's disposition), the conversation, usage (the model's
 * tokens, seconds of the caller's audio recognized, characters spoken), when it connected and ended, the events of its
 * log, what failed, what the conversation's own end said (a transfer's destination, an end tool's details), and what
 * fallback providers served of the usage.
 */
public record Ended(String reason, ConversationState conversation, TokenUsage tokens, double speechSeconds,
        long spokenCharacters, Instant connectedAt, Instant endedAt, List<Map<String, Object>> events, String failure,
        Map<String, Object> endDetails, ProviderShares shares) {

    /** A provider or a step failed and the call could not go on. */
    public static final String PIPELINE_ERROR = "pipeline_error";
    /** The call is handed to a person: its media stays up until the carrier took it (the session's owner does it). */
    public static final String TRANSFER = "transfer_call";

    public Ended {
        events = List.copyOf(events);
        endDetails = endDetails == null ? Map.of() : endDetails;
        shares = shares == null ? ProviderShares.NONE : shares;
    }

    /** An end on the configured providers only. */
    public Ended(String reason, ConversationState conversation, TokenUsage tokens, double speechSeconds,
            long spokenCharacters, Instant connectedAt, Instant endedAt, List<Map<String, Object>> events,
            String failure, Map<String, Object> endDetails) {
        this(reason, conversation, tokens, speechSeconds, spokenCharacters, connectedAt, endedAt, events, failure,
                endDetails, ProviderShares.NONE);
    }

    /** The same end with another reason and failure (a transfer the carrier refused). */
    public Ended as(String otherReason, String otherFailure) {
        return new Ended(otherReason, conversation, tokens, speechSeconds, spokenCharacters, connectedAt, endedAt,
                events, otherFailure, endDetails, shares);
    }
}
