package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.domain.conversation.AgentEngine;
import java.time.Instant;

/**
 * One agent turn on a speech-to-speech model: the engine's turn (none for a line said word for word, an idle prompt),
 * the caller's turn it answers, the model's responses it took (each a segment of its {@link Speech}), and what the
 * engine still wants said. On the call's loop only.
 */
final class Reply {

    final AgentEngine.Turn turn;
    /** The caller's turn it answers (the model's item), and where its words go in the conversation. */
    final String userItem;
    final int userIndex;
    final Speech speech;
    /** The response being played and its segment; whether one was asked for and has not started. */
    String responseId;
    Speech.Segment response;
    boolean requested;
    /** The model's item being spoken, and where its audio starts on the answer's timeline. */
    String itemId;
    long itemStartMs;
    /** The model answered the caller's turn by itself: the engine's first request is already being answered. */
    boolean answeredByModel;
    boolean finished;
    String endCall;
    /** What the engine said that the model must say (a transition's speech, a tool's last words). */
    String preface;
    int outputsSeen;
    int recordingsSeen;
    /** When the model was last asked for a response. */
    Instant askedAt;

    Reply(AgentEngine.Turn turn, String userItem, int userIndex, Speech speech) {
        this.turn = turn;
        this.userItem = userItem;
        this.userIndex = userIndex;
        this.speech = speech;
    }

    boolean responding() {
        return requested || responseId != null;
    }

    /** Once its turn finished and nothing more is asked of the model, nothing more is said. */
    void completeWhenDone() {
        if (finished && !responding() && preface == null) {
            speech.complete();
        }
    }
}
