package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.model.VoiceRuntimeProviders;
import dev.voiceagent.domain.voice.CallSettings;
import dev.voiceagent.domain.voice.VoicemailDetection;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.UUID;

/** A new workflow whose definition becomes version 1, published; empty trigger paths are minted. */
@Singleton
public class CreateWorkflowService implements CreateWorkflowUseCase {

    private final WorkflowRepository workflows;
    private final Clock clock;

    public CreateWorkflowService(WorkflowRepository workflows, Clock clock) {
        this.workflows = workflows;
        this.clock = clock;
    }

    @Override
    public Uni<WorkflowDetails> create(CreateWorkflowCommand command) {
        long org = command.principal().organizationId();
        WorkflowDefinition definition = Workflows.mintTriggerPaths(command.definition());
        return workflows.triggerPathsInUse(org, null).chain(inUse -> {
            Workflows.preCheck(definition, inUse);
            VoicemailDetection.of(command.configurations()); // what a call will follow
            VoiceRuntimeProviders.checkOverrides(command.configurations());
            CallSettings.check(command.configurations(), org);
            Workflow workflow = Workflow.create(org, command.principal().userId(), command.name(), definition,
                    command.configurations(), command.templateContextVariables(), clock.instant(), UUID.randomUUID());
            return workflows.insert(workflow);
        }).map(created -> new WorkflowDetails(created, 0));
    }
}
