package dev.voiceagent.domain.folder;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.Objects;

/** A flat, organization-owned folder of workflows; names are unique per organization. */
public record Folder(Long id, long organizationId, String name, Instant createdAt) {

    public static final int MAX_NAME_LENGTH = 100;

    public Folder {
        Objects.requireNonNull(createdAt, "createdAt");
        name = checkName(name);
    }

    public static String checkName(String name) {
        String stripped = name == null ? "" : name.strip();
        if (stripped.isEmpty() || stripped.length() > MAX_NAME_LENGTH) {
            throw new DomainRuleViolation("Folder name must be between 1 and " + MAX_NAME_LENGTH + " characters");
        }
        return stripped;
    }

    public Folder renamed(String newName) {
        return new Folder(id, organizationId, newName, createdAt);
    }
}
