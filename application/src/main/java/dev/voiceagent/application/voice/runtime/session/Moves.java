package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallCheckpoint;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.TokenUsage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How a call moves between replicas: the checkpoint it continues from (null for a new call), where each finished
 * turn's checkpoint goes, and what takes a call this replica lets go (its checkpoint, to be released).
 */
public record Moves(CallCheckpoint resumed, Consumer<CallCheckpoint> checkpoints, Consumer<CallCheckpoint> moved) {

    public static final Moves NONE = new Moves(null, c -> { }, c -> { });

    /**
     * Where the call stands now, this replica's usage added to what the replicas before it used; {@code moved} is 1
     * when the call is leaving this replica.
     */
    CallCheckpoint checkpoint(ConversationState conversation, List<Map<String, Object>> events, TokenUsage tokens,
            double speechSeconds, long spokenCharacters, Instant connectedAt, int moved) {
        return new CallCheckpoint(conversation, events, tokens, speechBefore() + speechSeconds,
                charactersBefore() + spokenCharacters, connectedAt, (resumed == null ? 0 : resumed.moves()) + moved);
    }

    /** Seconds of the caller's audio recognized on the replicas the call talked on before this one. */
    double speechBefore() {
        return resumed == null ? 0 : resumed.speechSeconds();
    }

    /** Characters spoken on the replicas the call talked on before this one. */
    long charactersBefore() {
        return resumed == null ? 0 : resumed.spokenCharacters();
    }
}
