package dev.voiceagent.application.campaign;

import io.smallrye.mutiny.Uni;

/** The import tick's use case: a started campaign's contacts loaded from its source. */
public interface ImportContactsUseCase {

    /**
     * Claims one campaign whose import is due (just started, or interrupted: its lease expired) and
     * imports it; false when there was none. Any replica may run it, so a crashed import resumes.
     */
    Uni<Boolean> importNext();
}
