package dev.voiceagent.application.conversation;

/** The session has moved on (or is answering another message): a 409 with both revisions. */
public class RevisionConflictException extends RuntimeException {

    private final int expectedRevision;
    private final int actualRevision;

    public RevisionConflictException(String message, int expectedRevision, int actualRevision) {
        super(message, null, false, false);
        this.expectedRevision = expectedRevision;
        this.actualRevision = actualRevision;
    }

    public int expectedRevision() {
        return expectedRevision;
    }

    public int actualRevision() {
        return actualRevision;
    }
}
