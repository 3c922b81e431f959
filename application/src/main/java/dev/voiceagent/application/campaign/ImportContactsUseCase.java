package dev.voiceagent.application.campaign;

import io.smallrye.mutiny.Uni;

public interface ImportContactsUseCase {

    /** Loads a syncing campaign's contacts and moves it on (running, or completed when empty); the row count. */
    Uni<Integer> importContacts(long organizationId, long campaignId);

    /**
     * Claims one campaign whose import is due (just started, or interrupted: its lease expired) and
     * imports it; false when there was none. Any replica may run it, so a crashed import resumes.
     */
    Uni<Boolean> importNext();
}
