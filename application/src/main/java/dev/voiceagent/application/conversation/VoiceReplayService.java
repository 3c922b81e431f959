package dev.voiceagent.application.conversation;

import dev.voiceagent.application.call.SimulatedCallee;
import dev.voiceagent.application.call.VoiceRuntime;
import dev.voiceagent.application.conversation.ScenarioUseCases.ReplayTarget;
import dev.voiceagent.application.conversation.ScenarioUseCases.Replayed;
import dev.voiceagent.application.conversation.ScenarioUseCases.VoiceReplayScenarioUseCase;
import dev.voiceagent.application.conversation.ScenarioUseCases.VoiceReplayed;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.CallTurns;
import dev.voiceagent.domain.conversation.FeedbackEvents;
import dev.voiceagent.domain.conversation.Scenario;
import dev.voiceagent.domain.conversation.ScenarioReplay;
import dev.voiceagent.domain.conversation.ScenarioReplay.ChatTurnOutcome;
import dev.voiceagent.domain.conversation.ScenarioReplay.TurnOutcome;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.telephony.CalleeScript;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenarios replayed as voice calls. The simulated callee ({@link SimulatedCallee}: FreeTTS speech over the media
 * route in Twilio's protocol, as the simulator's talking calls) says the scenario's user messages, each once the agent
 * finished speaking, to a new run of the workflow pinned to its draft or published version, with the scenario's
 * initial context; the call runs the phone pipeline on the organization's models. Once the run is completed its log is
 * read back turn by turn ({@link CallTurns}) and compared with the scenario as a text replay compares (the opening
 * turn first), with each answer's voice-to-voice latency and the barge-ins. The request lasts as long as the call.
 */
@Singleton
public class VoiceReplayService implements VoiceReplayScenarioUseCase {

    /** Scenarios replayed at once by a batch replay (each a live call on this replica). */
    static final int BATCH_LIMIT = 50;
    static final int CONCURRENCY = 50;
    /** The caller's pause after the agent finished before its next line. */
    static final int PAUSE_MS = 500;
    /** How long the completed run may take to be written after the call ended. */
    static final Duration SETTLE = Duration.ofSeconds(15);
    private static final Duration POLL = Duration.ofMillis(200);

    private final ScenarioRepository scenarios;
    private final WorkflowRepository workflows;
    private final WorkflowRunRepository runs;
    private final VoiceRuntime runtime;
    private final SimulatedCallee callee;
    private final Clock clock;

    public VoiceReplayService(ScenarioRepository scenarios, WorkflowRepository workflows, WorkflowRunRepository runs,
            VoiceRuntime runtime, SimulatedCallee callee, Clock clock) {
        this.scenarios = scenarios;
        this.workflows = workflows;
        this.runs = runs;
        this.runtime = runtime;
        this.callee = callee;
        this.clock = clock;
    }

    @Override
    public Uni<VoiceReplayed> voiceReplay(Principal principal, long workflowId, long runId, ReplayTarget target) {
        long org = principal.organizationId();
        return workflow(org, workflowId).chain(workflow -> scenarios.find(org, workflowId, runId)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(ScenarioService.NOT_FOUND)))
                .chain(scenario -> call(workflow, scenario, target)));
    }

    @Override
    public Uni<List<VoiceReplayed>> voiceReplayAll(Principal principal, long workflowId, ReplayTarget target) {
        long org = principal.organizationId();
        return workflow(org, workflowId).chain(workflow -> scenarios.list(org, workflowId).chain(all -> {
            if (all.isEmpty()) {
                return Uni.createFrom().item(List.of());
            }
            if (all.size() > BATCH_LIMIT) {
                throw new DomainRuleViolation("a batch replays at most " + BATCH_LIMIT + " scenarios at once; this"
                        + " workflow has " + all.size() + ": replay them one by one");
            }
            return Uni.join().all(all.stream().map(s -> call(workflow, s, target)).toList()).andFailFast();
        }));
    }

    private Uni<VoiceReplayed> call(Workflow workflow, Scenario scenario, ReplayTarget target) {
        WorkflowVersion version = target == ReplayTarget.PUBLISHED ? workflow.published() : workflow.editable();
        List<String> lines = scenario.steps().stream().map(Scenario.Step::userText).filter(t -> t != null
                && !t.isBlank()).map(t -> t.length() > CalleeScript.MAX_LINE_CHARS
                ? t.substring(0, CalleeScript.MAX_LINE_CHARS) : t).toList();
        if (lines.isEmpty() || lines.size() > CalleeScript.MAX_LINES) {
            throw new DomainRuleViolation("a voice replay says 1 to " + CalleeScript.MAX_LINES
                    + " user messages; scenario " + scenario.runId() + " has " + lines.size());
        }
        CalleeScript script = new CalleeScript(lines, PAUSE_MS, null, CalleeScript.DEFAULT_INTERRUPT_AFTER_MS);
        Instant now = clock.instant();
        WorkflowRun started = WorkflowRun.start(workflow.organizationId(), workflow.id(), version,
                "Voice replay of " + scenario.name(), "simulator", now);
        Map<String, Object> context = new LinkedHashMap<>(started.initialContext() == null ? Map.of()
                : started.initialContext());
        context.putAll(scenario.initialContext() == null ? Map.of() : scenario.initialContext());
        WorkflowRun run = WorkflowRun.initialized(started.organizationId(), started.workflowId(),
                started.definitionId(), started.name(), started.mode(), "inbound", context, now)
                .withAnnotations(Map.of("voice_replay", Map.of("scenario_run_id", scenario.runId())));
        int maxSeconds = Math.min(600, 60 + 20 * lines.size());
        String startNode = new AgentEngine(version.definition(), scenario.initialContext()).initialState()
                .currentNodeId();
        return runs.insert(run).chain(inserted -> {
            String url = runtime.streamUrl(workflow.organizationId(), workflow.id(), inserted.id()).orElseThrow(
                    () -> new DomainRuleViolation("the voice runtime has no media address: voice replays need it"));
            return callee.answer(url, inserted.id(), script, maxSeconds)
                    .chain(seconds -> settled(workflow.organizationId(), workflow.id(), inserted.id(),
                            clock.instant().plus(SETTLE))
                            .map(done -> compare(scenario, version, done, seconds, startNode)));
        });
    }

    /** The run once its call was written (completed), or as it is when that takes longer than {@link #SETTLE}. */
    private Uni<WorkflowRun> settled(long org, long workflowId, long runId, Instant deadline) {
        return runs.find(org, workflowId, runId).chain(found -> {
            WorkflowRun run = found.orElseThrow(() -> new ResourceNotFoundException("Workflow run not found"));
            if (run.completed() || clock.instant().isAfter(deadline)) {
                return Uni.createFrom().item(run);
            }
            return Uni.createFrom().voidItem().onItem().delayIt().by(POLL)
                    .chain(() -> settled(org, workflowId, runId, deadline));
        });
    }

    private static VoiceReplayed compare(Scenario scenario, WorkflowVersion version, WorkflowRun run, int seconds,
            String startNode) {
        List<Map<String, Object>> events = new ArrayList<>();
        List<?> logged = run.logs() == null ? null : JsonTree.asList(run.logs().get(FeedbackEvents.KEY));
        if (logged != null) {
            for (Object e : logged) {
                Map<String, Object> event = JsonTree.asMap(e);
                if (event != null) {
                    events.add(event);
                }
            }
        }
        List<CallTurns.Turn> turns = CallTurns.of(events, startNode);
        List<TurnOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < scenario.steps().size(); i++) {
            CallTurns.Turn turn = i < turns.size() ? turns.get(i) : null;
            outcomes.add(ScenarioReplay.compare(scenario.steps().get(i), turn == null ? null
                    : new ChatTurnOutcome(turn.path(), turn.answer())));
        }
        Replayed replayed = new Replayed(scenario, ScenarioReplay.of(outcomes, TokenUsage.ZERO),
                version.status().wireName(), version.versionNumber());
        double callSeconds = run.usageInfo() != null && run.usageInfo().get("call_duration_seconds") instanceof Number n
                ? n.doubleValue() : seconds;
        return new VoiceReplayed(replayed, run.id(), callSeconds, CallTurns.latenciesMs(events),
                CallTurns.bargeInsMs(events));
    }

    private Uni<Workflow> workflow(long org, long workflowId) {
        return workflows.find(org, workflowId)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")));
    }
}
