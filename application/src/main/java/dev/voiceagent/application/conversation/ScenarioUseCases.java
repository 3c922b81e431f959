package dev.voiceagent.application.conversation;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.conversation.Scenario;
import dev.voiceagent.domain.conversation.ScenarioReplay;
import io.smallrye.mutiny.Uni;
import java.util.List;

/** Scenarios: text chats saved as regression tests of their agent. */
public final class ScenarioUseCases {

    private ScenarioUseCases() {
    }

    /** Which version a replay runs against. */
    public enum ReplayTarget { DRAFT, PUBLISHED }

    /** A replay's outcome and the version it ran against. */
    public record Replayed(Scenario scenario, ScenarioReplay replay, String version, int versionNumber) {
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

    /**
     * A scenario replayed as a voice call: the path compared turn by turn as in a text replay, the call's run, its
     * length, and its figures (each answer's voice-to-voice latency, in the order of the caller's lines; the
     * barge-ins).
     */
    public record VoiceReplayed(Replayed replayed, long callRunId, double callSeconds, List<Long> latenciesMs,
            List<Long> bargeInsMs) {
    }

    /**
     * Replays scenarios as voice calls: the simulated caller says each user message through the media route, as a
     * carrier streams it (Twilio's protocol), to the agent's draft or published version on the organization's
     * models (speech-to-text, the language model, text-to-speech). The call is a run of the workflow (mode simulator).
     */
    public interface VoiceReplayScenarioUseCase {
        Uni<VoiceReplayed> voiceReplay(Principal principal, long workflowId, long runId, ReplayTarget target);

        /** Every scenario of the workflow at once, as concurrent calls (a load test of one agent). */
        Uni<List<VoiceReplayed>> voiceReplayAll(Principal principal, long workflowId, ReplayTarget target);
    }

    public interface ReplayScenarioUseCase {
        Uni<Replayed> replay(Principal principal, long workflowId, long runId, ReplayTarget target);
    }
}
