package dev.voiceagent.application.conversation;

import dev.voiceagent.domain.conversation.Scenario;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;

/** Out-port: the scenarios of an organization's workflows, each named by the chat it was saved from. */
public interface ScenarioRepository {

    /** Creates or replaces the scenario of the run. */
    Uni<Scenario> save(long organizationId, Scenario scenario);

    Uni<Optional<Scenario>> find(long organizationId, long workflowId, long runId);

    /** Oldest first. */
    Uni<List<Scenario>> list(long organizationId, long workflowId);

    /** False when there was none. */
    Uni<Boolean> delete(long organizationId, long workflowId, long runId);
}
