package dev.voiceagent.application.tool;

import dev.voiceagent.domain.tool.Tool;
import dev.voiceagent.domain.tool.ToolCategory;
import dev.voiceagent.domain.tool.ToolStatus;
import io.smallrye.mutiny.Uni;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Out-port: an organization's tools (archived ones included: nodes keep naming them). */
public interface ToolRepository {

    /** A tool with the provider id of the user who created it (null when unknown). */
    record StoredTool(Tool tool, String creatorProviderId) {
    }

    /** Newest first; a null filter matches all. */
    Uni<List<StoredTool>> list(long organizationId, Set<ToolStatus> statuses, ToolCategory category);

    Uni<Optional<StoredTool>> find(long organizationId, String uuid);

    /** The ones of {@code uuids} the organization has (one statement). */
    Uni<List<Tool>> findAll(long organizationId, Collection<String> uuids);

    Uni<StoredTool> insert(Tool tool);

    Uni<StoredTool> update(Tool tool);
}
