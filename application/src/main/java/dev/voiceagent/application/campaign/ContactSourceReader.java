package dev.voiceagent.application.campaign;

import dev.voiceagent.domain.campaign.ContactSourceCheck;
import io.smallrye.mutiny.Uni;

/** Out-port: reads a contact source (a CSV in the object store) row by row into a check, off the event loop. */
public interface ContactSourceReader {

    /** Feeds the header and every row; fails with DomainRuleViolation when the file is missing or not CSV. */
    Uni<Void> read(String sourceKey, ContactSourceCheck check);
}
