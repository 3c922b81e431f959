package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.NodeTypes;
import dev.voiceagent.domain.workflow.TemplateVariables;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Renders the editable version with the given variables (over its template variables); no model call. */
@Singleton
public class PreviewAgentService implements PreviewAgentUseCase {

    private final WorkflowRepository workflows;

    public PreviewAgentService(WorkflowRepository workflows) {
        this.workflows = workflows;
    }

    @Override
    public Uni<AgentPreview> preview(Principal principal, long workflowId, Map<String, Object> contextVariables) {
        return Workflows.find(workflows, principal.organizationId(), workflowId).map(workflow -> {
            WorkflowVersion version = workflow.editable();
            Map<String, Object> values = new HashMap<>();
            if (version.templateContextVariables() != null) {
                values.putAll(version.templateContextVariables());
            }
            if (contextVariables != null) {
                values.putAll(contextVariables);
            }
            String greeting = null;
            List<AgentPreview.NodePrompt> prompts = new ArrayList<>();
            Set<String> unresolved = new TreeSet<>();
            for (WorkflowDefinition.Node node : version.definition().nodes()) {
                if (node.data() == null) {
                    continue;
                }
                String prompt = JsonTree.asString(node.data().get("prompt"));
                if (prompt != null) {
                    String rendered = TemplateVariables.render(prompt, values);
                    unresolved.addAll(TemplateVariables.referencedIn(rendered));
                    prompts.add(new AgentPreview.NodePrompt(node.id(), node.type(),
                            JsonTree.asString(node.data().get("name")), rendered));
                }
                if (NodeTypes.START_CALL.equals(node.type()) && node.data().get("greeting") instanceof String g) {
                    greeting = TemplateVariables.render(g, values);
                    unresolved.addAll(TemplateVariables.referencedIn(greeting));
                }
            }
            return new AgentPreview(workflowId, version.versionNumber(), greeting, prompts, unresolved);
        });
    }
}
