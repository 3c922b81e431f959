package dev.voiceagent.application.tool;

import jakarta.inject.Singleton;
import dev.voiceagent.domain.tool.Tool;
import dev.voiceagent.domain.tool.ToolFunctions;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowError;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The tool checks of a definition, its nodes' tools read in one statement (none when no node names a tool). */
@Singleton
public class ToolChecks {

    private final ToolRepository tools;

    public ToolChecks(ToolRepository tools) {
        this.tools = tools;
    }

    public Uni<List<WorkflowError>> check(long organizationId, WorkflowDefinition definition) {
        var uuids = ToolFunctions.toolUuids(definition);
        if (uuids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return tools.findAll(organizationId, uuids).map(found -> {
            Map<String, Tool> byUuid = found.stream().collect(Collectors.toMap(Tool::uuid, Function.identity()));
            return ToolFunctions.check(definition, byUuid);
        });
    }
}
