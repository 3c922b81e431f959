package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.ConversationState;
import io.smallrye.mutiny.subscription.Cancellable;
import java.time.Instant;

/**
 * One agent turn of the pipeline (LiveKit's speech handle with its generation): the engine's turn, what the caller
 * said to it, what it says ({@link Speech}), and the model's stream while it writes. A line the
 * session says by itself (an idle prompt, the fallback line, a voicemail's message, a resumed call's first line) has
 * no engine turn; an answer waiting for a voicemail verdict has nothing to say yet. On the call's loop only.
 */
final class Answer {

    final int id;
    /** The engine's turn, or null for a line the session says by itself. */
    final AgentEngine.Turn turn;
    /** What the caller said that this answers, or null. */
    final String userText;
    final Speech speech;
    /** The engine's outputs and recordings already put in the speech. */
    int outputsSeen;
    int recordingsSeen;
    private int segments;
    private boolean finished;
    /** The conversation's end this turn reached (an end-call node or tool), said once the answer was heard. */
    String endCall;
    /** The model's stream while it writes this answer. */
    Cancellable stream;
    /** The model's writing of this answer, while it writes (a stalled model's is switched to the next one). */
    Generation.Writing writing;
    /** When the model was last asked and has not said anything back yet (null otherwise). */
    Instant modelSilentSince;
    /** Said whatever the line carries (a message left on a voicemail: its beeps and echoes are no barge-in). */
    boolean uninterruptible;

    Answer(int id, AgentEngine.Turn turn, String userText, Speech speech) {
        this.id = id;
        this.turn = turn;
        this.userText = userText;
        this.speech = speech;
    }

    /** The id of its next segment: {@code kind} u for a sentence, r for a recording. */
    String nextSegment(char kind) {
        return "a" + id + kind + ++segments;
    }

    /** Whether a segment is a line of the voice (not a recording): a voice taking over says it again. */
    static boolean utterance(Speech.Segment segment) {
        return segment.id.matches("a\\d+u\\d+");
    }

    /** Nothing more will be added to what it says (its engine turn finished, or it is a line said as it is). */
    void finish() {
        finished = true;
        speech.complete();
    }

    boolean finished() {
        return finished;
    }

    /**
     * The caller cut the answer short having heard {@code heard} of it: the caller's words that join their next turn
     * instead of being answered now (nothing of the answer was heard, or a voicemail's verdict was still awaited), or
     * null.
     */
    String carried(String heard) {
        return turn == null || !finished && heard.isBlank() ? userText : null;
    }

    /** ... and what the conversation keeps of it: only what was heard (an unfinished turn decided nothing). */
    ConversationState kept(ConversationState conversation, String heard) {
        if (turn == null) {
            return conversation; // a line the session said by itself
        }
        return finished ? conversation.interrupted(heard) : conversation.cutShort(userText, heard);
    }

    /**
     * The call failed while this answer was under way, {@code heard} of it played: the conversation keeps the caller's
     * words and what was heard (an answer already in the conversation keeps only what was heard of it).
     */
    ConversationState keptOnFailure(ConversationState conversation, String heard) {
        if (turn == null) { // a line of the session's own; the callee's first turn awaiting its voicemail verdict
            return userText == null ? conversation : conversation.cutShort(userText, null);
        }
        return finished ? conversation.interrupted(heard) : conversation.cutShort(userText, heard);
    }

    /**
     * Whether the caller may cut in: as the node allows; an idle prompt may be answered over, the fallback line of a
     * call that failed and a voicemail's message may not.
     */
    boolean interruptible(boolean callFailed) {
        return !uninterruptible && (turn == null ? !callFailed : turn.interruptible());
    }
}
