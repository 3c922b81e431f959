package dev.voiceagent.application.conversation;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.conversation.ScenarioUseCases.DeleteScenarioUseCase;
import dev.voiceagent.application.conversation.ScenarioUseCases.ListScenariosUseCase;
import dev.voiceagent.application.conversation.ScenarioUseCases.ReplayScenarioUseCase;
import dev.voiceagent.application.conversation.ScenarioUseCases.ReplayTarget;
import dev.voiceagent.application.conversation.ScenarioUseCases.Replayed;
import dev.voiceagent.application.conversation.ScenarioUseCases.SaveScenarioUseCase;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.AgentEngine.TurnResult;
import dev.voiceagent.domain.conversation.ChatTurn;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.Scenario;
import dev.voiceagent.domain.conversation.ScenarioReplay;
import dev.voiceagent.domain.conversation.ScenarioReplay.ChatTurnOutcome;
import dev.voiceagent.domain.conversation.ScenarioReplay.TurnOutcome;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Saves a text chat as a scenario and replays it against the agent's current draft (or published version):
 * the same user messages through the engine on the organization's language model, compared turn by turn.
 * Nothing a replay does is stored. With the simulator model a replay is deterministic.
 */
@Singleton
public class ScenarioService implements SaveScenarioUseCase, ListScenariosUseCase, DeleteScenarioUseCase,
        ReplayScenarioUseCase {

    static final String NOT_FOUND = "Scenario not found";

    private final ScenarioRepository scenarios;
    private final TextChatService chats;
    private final WorkflowRepository workflows;
    private final ConversationModels models;
    private final LanguageModel languageModel;
    private final Clock clock;

    public ScenarioService(ScenarioRepository scenarios, TextChatService chats, WorkflowRepository workflows,
            ConversationModels models, LanguageModel languageModel, Clock clock) {
        this.scenarios = scenarios;
        this.chats = chats;
        this.workflows = workflows;
        this.models = models;
        this.languageModel = languageModel;
        this.clock = clock;
    }

    @Override
    public Uni<Scenario> save(Principal principal, long workflowId, long runId, String name,
            List<Scenario.Correction> corrections) {
        long org = principal.organizationId();
        return chats.find(org, workflowId, runId).chain(chat -> scenarios.find(org, workflowId, runId).chain(existing -> {
            Instant now = clock.instant();
            Scenario scenario = Scenario.record(runId, workflowId, name, chat.run().initialContext(), chat.session(),
                    corrections, existing.map(Scenario::createdAt).orElse(now), now);
            return scenarios.save(org, scenario);
        }));
    }

    @Override
    public Uni<List<Scenario>> list(Principal principal, long workflowId) {
        long org = principal.organizationId();
        return workflow(org, workflowId).chain(w -> scenarios.list(org, workflowId));
    }

    @Override
    public Uni<Void> delete(Principal principal, long workflowId, long runId) {
        return scenarios.delete(principal.organizationId(), workflowId, runId).invoke(deleted -> {
            if (!deleted) {
                throw new ResourceNotFoundException(NOT_FOUND);
            }
        }).replaceWithVoid();
    }

    @Override
    public Uni<Replayed> replay(Principal principal, long workflowId, long runId, ReplayTarget target) {
        long org = principal.organizationId();
        return workflow(org, workflowId).chain(workflow -> scenarios.find(org, workflowId, runId)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)))
                .chain(scenario -> {
                    WorkflowVersion version = target == ReplayTarget.PUBLISHED ? workflow.published()
                            : workflow.editable();
                    AgentEngine engine = new AgentEngine(version.definition(), scenario.initialContext());
                    return models.languageModel(org, workflow.createdBy() == null ? 0 : workflow.createdBy(),
                                    version.configurations()) // the model the chats of this version use
                            .chain(endpoint -> replay(engine, scenario, endpoint))
                            .map(replay -> new Replayed(scenario, replay, version.status().wireName(),
                                    version.versionNumber()));
                }));
    }

    private Uni<ScenarioReplay> replay(AgentEngine engine, Scenario scenario, ModelEndpoint endpoint) {
        List<TurnOutcome> outcomes = new ArrayList<>();
        TokenUsage[] used = {TokenUsage.ZERO};
        return step(engine, scenario.steps(), 0, engine.initialState(), endpoint, outcomes, used)
                .map(done -> ScenarioReplay.of(outcomes, used[0]));
    }

    /** Replays the steps from {@code index} on, one after the other. */
    private Uni<Boolean> step(AgentEngine engine, List<Scenario.Step> steps, int index, ConversationState state,
            ModelEndpoint endpoint, List<TurnOutcome> outcomes, TokenUsage[] used) {
        if (index >= steps.size()) {
            return Uni.createFrom().item(true);
        }
        Scenario.Step step = steps.get(index);
        if (step.userText() != null && state.ended()) {
            outcomes.add(ScenarioReplay.compare(step, null));
            return step(engine, steps, index + 1, state, endpoint, outcomes, used);
        }
        AgentEngine.Turn turn = step.userText() == null ? engine.open(state) : engine.reply(state, step.userText());
        return TurnRunner.run(turn, languageModel, endpoint).chain(result -> {
            used[0] = used[0].plus(result.usage());
            outcomes.add(ScenarioReplay.compare(step, outcome(result)));
            return step(engine, steps, index + 1, result.state(), endpoint, outcomes, used);
        });
    }

    private static ChatTurnOutcome outcome(TurnResult result) {
        ChatTurn asTurn = new ChatTurn("replay", Instant.EPOCH, null, result.assistantText(), null, result.events(),
                result.usage(), result.state());
        return new ChatTurnOutcome(Scenario.Expectation.of(asTurn), result.assistantText());
    }

    private Uni<Workflow> workflow(long org, long workflowId) {
        return workflows.find(org, workflowId)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")));
    }
}
