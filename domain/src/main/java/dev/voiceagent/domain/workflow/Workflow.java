package dev.voiceagent.domain.workflow;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * An agent: a named, organization-owned workflow whose definition is versioned. Exactly one version
 * is published at any time; at most one draft collects edits until it is published.
 */
public record Workflow(
        Long id,
        long organizationId,
        UUID workflowUuid,
        Long createdBy,
        String name,
        WorkflowStatus status,
        Long folderId,
        Instant createdAt,
        WorkflowVersion published,
        WorkflowVersion draft) {

    public static final int MAX_NAME_LENGTH = 255;

    public Workflow {
        Objects.requireNonNull(workflowUuid, "workflowUuid");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(published, "published");
        name = checkName(name);
        if (published.status() != VersionStatus.PUBLISHED) {
            throw new IllegalArgumentException("the published version must be published");
        }
        if (draft != null && draft.status() != VersionStatus.DRAFT) {
            throw new IllegalArgumentException("the draft version must be a draft");
        }
    }

    public static String checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new DomainRuleViolation("name must not be blank");
        }
        String stripped = name.strip();
        if (stripped.length() > MAX_NAME_LENGTH) {
            throw new DomainRuleViolation("name must be at most " + MAX_NAME_LENGTH + " characters");
        }
        return stripped;
    }

    /** A new workflow: its definition becomes version 1, published. */
    public static Workflow create(long organizationId, long createdBy, String name, WorkflowDefinition definition,
            Map<String, Object> configurations, Map<String, Object> templateContextVariables, Instant now, UUID uuid) {
        WorkflowVersion first = new WorkflowVersion(null, 1, VersionStatus.PUBLISHED, definition, configurations,
                templateContextVariables, now, now);
        return new Workflow(null, organizationId, uuid, createdBy, name, WorkflowStatus.ACTIVE, null, now, first, null);
    }

    /** The version edits and test calls use: the draft if there is one, else the published one. */
    public WorkflowVersion editable() {
        return draft != null ? draft : published;
    }

    public Optional<WorkflowVersion> draftVersion() {
        return Optional.ofNullable(draft);
    }

    public Workflow renamed(String newName) {
        return new Workflow(id, organizationId, workflowUuid, createdBy, newName, status, folderId, createdAt, published, draft);
    }

    public Workflow withStatus(WorkflowStatus newStatus) {
        return new Workflow(id, organizationId, workflowUuid, createdBy, name, newStatus, folderId, createdAt, published, draft);
    }

    public Workflow inFolder(Long newFolderId) {
        return new Workflow(id, organizationId, workflowUuid, createdBy, name, status, newFolderId, createdAt, published, draft);
    }

    /**
     * Applies edited content to the single draft: the existing draft is updated in place, or a new
     * one is started at {@code nextVersionNumber} (max version + 1). Content equal to what is
     * already editable changes nothing.
     */
    public Workflow withDraftContent(WorkflowDefinition definition, Map<String, Object> configurations,
            Map<String, Object> templateContextVariables, int nextVersionNumber, Instant now) {
        if (editable().sameContentAs(definition, configurations, templateContextVariables)) {
            return this;
        }
        WorkflowVersion newDraft = draft != null
                ? new WorkflowVersion(draft.id(), draft.versionNumber(), VersionStatus.DRAFT, definition, configurations,
                        templateContextVariables, draft.createdAt(), null)
                : new WorkflowVersion(null, nextVersionNumber, VersionStatus.DRAFT, definition, configurations,
                        templateContextVariables, now, null);
        return new Workflow(id, organizationId, workflowUuid, createdBy, name, status, folderId, createdAt, published, newDraft);
    }

    /** A draft copied from the published version, unless a draft exists already. */
    public Workflow withDraftFromPublished(int nextVersionNumber, Instant now) {
        if (draft != null) {
            return this;
        }
        WorkflowVersion copy = new WorkflowVersion(null, nextVersionNumber, VersionStatus.DRAFT, published.definition(),
                published.configurations(), published.templateContextVariables(), now, null);
        return new Workflow(id, organizationId, workflowUuid, createdBy, name, status, folderId, createdAt, published, copy);
    }

    /** The draft becomes the published version (the previous one is archived by the repository). */
    public Workflow publishDraft(Instant now) {
        if (draft == null) {
            throw new DomainRuleViolation("No draft to publish");
        }
        WorkflowVersion nowPublished = new WorkflowVersion(draft.id(), draft.versionNumber(), VersionStatus.PUBLISHED,
                draft.definition(), draft.configurations(), draft.templateContextVariables(), draft.createdAt(), now);
        return new Workflow(id, organizationId, workflowUuid, createdBy, name, status, folderId, createdAt, nowPublished, null);
    }
}
