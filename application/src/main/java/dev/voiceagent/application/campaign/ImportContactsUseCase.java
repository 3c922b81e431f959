package dev.voiceagent.application.campaign;

import io.smallrye.mutiny.Uni;

public interface ImportContactsUseCase {

    /** Loads a syncing campaign's contacts and moves it on (running, or completed when empty); the row count. */
    Uni<Integer> importContacts(long organizationId, long campaignId);
}
