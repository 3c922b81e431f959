package dev.voiceagent.application.conversation;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.conversation.Scenario;
import io.smallrye.mutiny.Uni;
import java.util.List;

/** Scenarios: text chats saved as regression tests of their agent. */
public final class ScenarioUseCases {

    private ScenarioUseCases() {
    }

    /** Which version a replay runs against. */
    public enum ReplayTarget { DRAFT, PUBLISHED }

    /** A replay's outcome and the version it ran against. */
    public record Replayed(Scenario scenario, dev.voiceagent.domain.conversation.ScenarioReplay replay, String version,
            int versionNumber) {
    }

    public interface SaveScenarioUseCase {
        Uni<Scenario> save(Principal principal, long workflowId, long runId, String name,
                List<Scenario.Correction> corrections);
    }

    public interface ListScenariosUseCase {
        Uni<List<Scenario>> list(Principal principal, long workflowId);
    }

    public interface DeleteScenarioUseCase {
        Uni<Void> delete(Principal principal, long workflowId, long runId);
    }

    public interface ReplayScenarioUseCase {
        Uni<Replayed> replay(Principal principal, long workflowId, long runId, ReplayTarget target);
    }
}
