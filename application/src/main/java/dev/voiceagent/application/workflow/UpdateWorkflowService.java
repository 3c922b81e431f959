package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.model.VoiceRuntimeProviders;
import dev.voiceagent.domain.voice.CallSettings;
import dev.voiceagent.domain.voice.VoicemailDetection;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.SecretMasking;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Map;

/**
 * A name change applies directly; a changed definition, configuration or template variables go to
 * the single draft. Masked secrets sent back keep the stored values.
 */
@Singleton
public class UpdateWorkflowService implements UpdateWorkflowUseCase {

    private final WorkflowRepository workflows;
    private final Clock clock;

    public UpdateWorkflowService(WorkflowRepository workflows, Clock clock) {
        this.workflows = workflows;
        this.clock = clock;
    }

    @Override
    public Uni<WorkflowDetails> update(UpdateWorkflowCommand c) {
        long org = c.principal().organizationId();
        return Workflows.find(workflows, org, c.workflowId()).chain(before -> {
            Workflow renamed = c.name() == null ? before : before.renamed(c.name());
            if (c.definition() == null && c.configurations() == null && c.templateContextVariables() == null) {
                return workflows.save(before, renamed);
            }
            WorkflowVersion current = before.editable();
            WorkflowDefinition definition = c.definition() == null ? current.definition()
                    : Workflows.mintTriggerPaths(WorkflowDefinition.of(JsonTree.asMap(
                            SecretMasking.restore(c.definition().tree(), current.definition().tree()))));
            Map<String, Object> configurations = c.configurations() == null ? current.configurations()
                    : JsonTree.asMap(SecretMasking.restore(c.configurations(), current.configurations()));
            VoicemailDetection.of(configurations); // what a call will follow: 400 now
            VoiceRuntimeProviders.checkOverrides(configurations);
            CallSettings.check(configurations, org);
            Map<String, Object> variables = c.templateContextVariables() == null ? current.templateContextVariables()
                    : c.templateContextVariables();
            return workflows.triggerPathsInUse(org, before.id()).chain(inUse -> {
                Workflows.preCheck(definition, inUse);
                return workflows.nextVersionNumber(before.id());
            }).chain(next -> workflows.save(before,
                    renamed.withDraftContent(definition, configurations, variables, next, clock.instant())));
        }).chain(saved -> Workflows.details(workflows, saved));
    }
}
