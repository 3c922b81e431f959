package dev.voiceagent.application.conversation;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.conversation.TextChatUseCases.CloseIdleTextChatsUseCase;
import dev.voiceagent.application.conversation.TextChatUseCases.CreateTextChatUseCase;
import dev.voiceagent.application.conversation.TextChatUseCases.EndTextChatUseCase;
import dev.voiceagent.application.conversation.TextChatUseCases.GetTextChatUseCase;
import dev.voiceagent.application.conversation.TextChatUseCases.RewindTextChatUseCase;
import dev.voiceagent.application.conversation.TextChatUseCases.SendTextChatMessageUseCase;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.trace.ModelSpans;
import dev.voiceagent.application.trace.RunTracing;
import dev.voiceagent.application.trace.TraceSpan;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.AgentEngine.TurnResult;
import dev.voiceagent.domain.conversation.ChatRuns;
import dev.voiceagent.domain.conversation.ChatTurn;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.TextChatSession;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Multi;
import dev.voiceagent.application.workflow.RunCompletions;
import io.smallrye.mutiny.Uni;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.domain.storage.ObjectKeys;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * Text chat with an agent (mode textchat, the reference's 6.1). A message claims the session at its revision
 * (one wins, the other is a 409), runs the turn on the organization's language model without holding a
 * database connection, and commits the turn with the run's gathered values and token usage in one write;
 * a failed turn gives the claim up and leaves the session at its previous revision.
 */
public class TextChatService implements CreateTextChatUseCase, GetTextChatUseCase, SendTextChatMessageUseCase,
        EndTextChatUseCase, RewindTextChatUseCase, CloseIdleTextChatsUseCase {

    static final String NOT_FOUND = "Text chat session not found";
    static final String NOT_A_CHAT = "This run is not a text chat session";
    static final String ENDED = "Text chat session has ended";
    static final String BUSY = "Another message of this session is being answered";
    static final String MOVED_ON = "Text chat session revision conflict";
    /** How long a claim lasts: longer than a turn may take; a replica that died lets go by then. */
    static final Duration LEASE = Duration.ofMinutes(3);
    public static final int MAX_USER_TURNS = 200;
    public static final int MAX_TEXT = 4000;

    private final TextChatRepository chats;
    private final WorkflowRepository workflows;
    private final WorkflowRunRepository runs;
    private final ConversationModels models;
    private final LanguageModel languageModel;
    private final Clock clock;
    private final RandomGenerator random;
    private final RunTracing tracing;
    private final ObjectStore objects;
    private final ConversationTools tools;
    private final CreditGate credits;
    private static final System.Logger LOG = System.getLogger(TextChatService.class.getName());

    private final RunCompletions completions;

    public TextChatService(TextChatRepository chats, WorkflowRepository workflows, WorkflowRunRepository runs,
            ConversationModels models, LanguageModel languageModel, ObjectStore objects, ConversationTools tools,
            Clock clock, RandomGenerator random, CreditGate credits) {
        this(chats, workflows, runs, models, languageModel, objects, tools, clock, random, credits, null);
    }

    /** @param tracing where each answered turn is traced (null: nowhere) */
    public TextChatService(TextChatRepository chats, WorkflowRepository workflows, WorkflowRunRepository runs,
            ConversationModels models, LanguageModel languageModel, ObjectStore objects, ConversationTools tools,
            Clock clock, RandomGenerator random, CreditGate credits, RunTracing tracing) {
        this.tracing = tracing;
        this.credits = credits;
        this.objects = objects;
        this.tools = tools;
        this.chats = chats;
        this.workflows = workflows;
        this.completions = new RunCompletions(workflows);
        this.runs = runs;
        this.models = models;
        this.languageModel = languageModel;
        this.clock = clock;
        this.random = random;
    }

    @Override
    public Uni<TextChatRecord> create(Principal principal, long workflowId, String name,
            Map<String, Object> initialContext, Map<String, Object> annotations) {
        long org = principal.organizationId();
        return workflows.find(org, workflowId)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")))
                .chain(workflow -> start(workflow, workflow.editable(), name, initialContext, annotations));
    }

    /** A new chat on a version of a workflow: the opening turn runs first, so nothing is stored if it fails. */
    public Uni<TextChatRecord> start(Workflow workflow, WorkflowVersion version, String name,
            Map<String, Object> initialContext, Map<String, Object> annotations) {
        Instant now = clock.instant();
        String runName = name == null || name.isBlank() ? "WR-TEXT-%06d".formatted(random.nextInt(1_000_000))
                : name.strip();
        WorkflowRun started = WorkflowRun.start(workflow.organizationId(), workflow.id(), version, runName, "textchat",
                now);
        Map<String, Object> context = new LinkedHashMap<>(started.initialContext() == null ? Map.of()
                : started.initialContext());
        if (initialContext != null) {
            context.putAll(initialContext);
        }
        WorkflowRun run = WorkflowRun.initialized(started.organizationId(), started.workflowId(),
                started.definitionId(), runName, started.mode(), started.callType(), context, now)
                .withAnnotations(annotations);
        return credits.requireCredit(workflow.organizationId()).chain(() -> Uni.combine().all().unis(
                models.languageModel(workflow.organizationId(), owner(workflow), version.configurations()),
                tools.load(workflow.organizationId(), version.definition())).asTuple()).chain(loaded -> {
            ModelEndpoint endpoint = loaded.getItem1();
            ConversationTools.Toolbox toolbox = loaded.getItem2();
            AgentEngine engine = new AgentEngine(version.definition(), context, toolbox.nodeTools(), MAX_USER_TURNS,
                    AgentEngine.DEFAULT_MAX_MODEL_CALLS);
            return TurnRunner.run(engine.open(engine.initialState()), languageModel, endpoint, toolbox.runner())
                    .chain(result -> {
                    Instant at = clock.instant();
                    ChatTurn turn = turn(null, now, result, at);
                    TextChatSession session = TextChatSession.empty().withTurn(turn, at);
                    WorkflowRun updated = ChatRuns.withFeedback(ChatRuns.afterTurn(run, result.state(),
                            result.usage(), ConversationModels.key(endpoint), at), session.activeTurns());
                    return chats.create(updated, session, checkpoint(result.state(), turn.id()), at)
                            .call(created -> traced(created.run(), 0, null, now, result, endpoint, at));
                });
        });
    }

    @Override
    public Uni<TextChatRecord> get(Principal principal, long workflowId, long runId) {
        return find(principal.organizationId(), workflowId, runId);
    }

    /** The chat of a run of the organization's workflow: 404 when there is none, 400 for a run of another mode. */
    public Uni<TextChatRecord> find(long org, long workflowId, long runId) {
        return chats.find(org, workflowId, runId).chain(found -> found.isPresent()
                ? Uni.createFrom().item(found.get())
                : runs.find(org, workflowId, runId).map(run -> {
                    throw run.isPresent() ? new DomainRuleViolation(NOT_A_CHAT) : new ResourceNotFoundException(NOT_FOUND);
                }));
    }

    @Override
    public Uni<TextChatRecord> send(Principal principal, long workflowId, long runId, String text,
            Integer expectedRevision) {
        return send(principal.organizationId(), workflowId, runId, text, expectedRevision, MAX_USER_TURNS);
    }

    /** A message to a chat of the organization; {@code maxUserTurns} caps the conversation (an embed's is lower). */
    public Uni<TextChatRecord> send(long org, long workflowId, long runId, String text, Integer expectedRevision,
            int maxUserTurns) {
        if (text == null || text.isBlank() || text.length() > MAX_TEXT) {
            throw new DomainRuleViolation("text must be 1 to " + MAX_TEXT + " characters");
        }
        return find(org, workflowId, runId).chain(record -> {
            open(record);
            checkRevision(record, expectedRevision);
            return chats.claim(runId, record.revision(), LEASE, clock.instant()).chain(claim -> {
                if (!claim.claimed()) {
                    throw conflict(expectedRevision, record.revision(), claim);
                }
                return answer(record, text.strip(), maxUserTurns)
                        .onFailure().call(failure -> chats.release(runId, claim.token()))
                        .chain(answered -> commit(record, claim.token(), answered.session(), answered.checkpoint(),
                                answered.run(), expectedRevision)
                                .call(committed -> traced(committed.run(), committed.revision(), text.strip(),
                                        answered.asked(), answered.result(), answered.endpoint(), answered.at())));
            });
        });
    }

    private record Answered(TextChatSession session, Map<String, Object> checkpoint, WorkflowRun run,
            Instant asked, TurnResult result, ModelEndpoint endpoint, Instant at) {
    }

    /**
     * The turn in the run's trace (one trace per chat, a top span per turn: {@code chat turn}, the caller's text and
     * the model's {@code llm} span); a trace that cannot be opened never fails the turn.
     */
    private Uni<Void> traced(WorkflowRun run, int turn, String userText, Instant asked, TurnResult result,
            ModelEndpoint endpoint, Instant at) {
        if (tracing == null || run.id() == null) {
            return Uni.createFrom().voidItem();
        }
        return tracing.open(run, "chat " + run.name(), asked, Map.of("voiceagent.llm.model",
                        ConversationModels.key(endpoint)))
                .invoke(trace -> {
                    if (trace.recording()) {
                        TraceSpan.Builder span = new TraceSpan.Builder("chat turn", asked)
                                .attribute("voiceagent.turn", turn).attribute("voiceagent.user.text", userText)
                                .child(ModelSpans.of(result, endpoint.model(), asked, null, at));
                        trace.span(span.end(at));
                        trace.end(at, Map.of());
                    }
                })
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    private Uni<Answered> answer(TextChatRecord record, String text, int maxUserTurns) {
        WorkflowRun run = record.run();
        return workflows.find(run.organizationId(), run.workflowId())
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")))
                .chain(workflow -> workflows.findVersion(run.organizationId(), run.workflowId(), run.definitionId())
                        .map(v -> v.orElseThrow(() -> new ResourceNotFoundException("Workflow version not found")))
                        .chain(version -> Uni.combine().all().unis(
                                        models.languageModel(run.organizationId(), owner(workflow),
                                                version.configurations()),
                                        tools.load(run.organizationId(), version.definition())).asTuple()
                                .chain(loaded -> {
                                    ModelEndpoint endpoint = loaded.getItem1();
                                    ConversationTools.Toolbox toolbox = loaded.getItem2();
                                    AgentEngine engine = new AgentEngine(version.definition(), run.initialContext(),
                                            toolbox.nodeTools(), maxUserTurns, AgentEngine.DEFAULT_MAX_MODEL_CALLS);
                                    ConversationState from = record.session().resumeFrom(engine.initialState());
                                    Instant asked = clock.instant();
                                    return TurnRunner.run(engine.reply(from, text), languageModel, endpoint,
                                                    toolbox.runner())
                                            .map(result -> answered(record, text, asked, result, endpoint));
                                })));
    }

    private Answered answered(TextChatRecord record, String text, Instant asked, TurnResult result,
            ModelEndpoint endpoint) {
        Instant at = clock.instant();
        ChatTurn turn = turn(text, asked, result, at);
        TextChatSession session = record.session().withTurn(turn, at);
        WorkflowRun run = ChatRuns.afterTurn(record.run(), result.state(), result.usage(),
                ConversationModels.key(endpoint), at);
        return new Answered(session, checkpoint(result.state(), turn.id()), run, asked, result, endpoint, at);
    }

    @Override
    public Uni<TextChatRecord> end(Principal principal, long workflowId, long runId, Integer expectedRevision) {
        return end(principal.organizationId(), workflowId, runId, expectedRevision, ChatRuns.USER_HANGUP);
    }

    /** Ends a chat (idempotent once ended); the run is completed with the given disposition. */
    public Uni<TextChatRecord> end(long org, long workflowId, long runId, Integer expectedRevision, String reason) {
        return find(org, workflowId, runId).chain(record -> {
            if (record.run().completed()) {
                return Uni.createFrom().item(record);
            }
            checkRevision(record, expectedRevision);
            WorkflowRun run = ChatRuns.completed(record.run(), reason, clock.instant());
            return commit(record, null, record.session().completedNow(), record.checkpoint(), run, expectedRevision);
        });
    }

    @Override
    public Uni<TextChatRecord> rewind(Principal principal, long workflowId, long runId, String cursorTurnId,
            Integer expectedRevision) {
        return find(principal.organizationId(), workflowId, runId).chain(record -> {
            open(record);
            checkRevision(record, expectedRevision);
            TextChatSession rewound = record.session().rewoundTo(cursorTurnId == null || cursorTurnId.isBlank() ? null
                    : cursorTurnId);
            List<ChatTurn> active = rewound.activeTurns();
            Map<String, Object> checkpoint = active.isEmpty() ? record.checkpoint()
                    : checkpoint(active.getLast().checkpoint(), active.getLast().id());
            return commit(record, null, rewound, checkpoint, record.run(), expectedRevision);
        });
    }

    @Override
    public Uni<Integer> closeIdle() {
        return chats.idle(clock.instant(), 100).onItem().transformToMulti(idle -> Multi.createFrom().iterable(idle))
                .onItem().transformToUniAndConcatenate(idle -> end(idle.organizationId(), idle.workflowId(),
                        idle.runId(), null, ChatRuns.INACTIVITY_TIMEOUT).map(r -> 1)
                        .onFailure(RevisionConflictException.class).recoverWithItem(0))
                .collect().asList().map(all -> all.stream().mapToInt(Integer::intValue).sum());
    }

    private Uni<TextChatRecord> commit(TextChatRecord record, String token, TextChatSession session,
            Map<String, Object> checkpoint, WorkflowRun changed, Integer expectedRevision) {
        WorkflowRun run = ChatRuns.withFeedback(changed, session.activeTurns()); // what the run page shows
        long runId = record.run().id();
        Instant at = clock.instant();
        return completions.events(record.run().completed(), run, at)
                .chain(events -> chats.save(runId, record.revision(), token, session, checkpoint, run, at, events))
                .chain(saved -> {
                    if (saved.isEmpty()) {
                        return chats.find(run.organizationId(), run.workflowId(), runId).map(now -> {
                            throw new RevisionConflictException(now.map(TextChatRecord::busy).orElse(false) ? BUSY
                                    : MOVED_ON, expectedRevision == null ? record.revision() : expectedRevision,
                                    now.map(TextChatRecord::revision).orElse(record.revision()));
                        });
                    }
                    return run.completed() ? transcribe(record, session, run)
                            : find(run.organizationId(), run.workflowId(), runId);
                });
    }

    /**
     * A completed chat's transcript ("user: ..." / "assistant: ..." lines) in the object store, named on the
     * run (transcript_url). A failure to store it is logged and does not undo the completion.
     */
    private Uni<TextChatRecord> transcribe(TextChatRecord record, TextChatSession session, WorkflowRun run) {
        long runId = record.run().id();
        String key = ObjectKeys.transcript(run.organizationId(), runId);
        StringBuilder text = new StringBuilder();
        for (ChatTurn turn : session.activeTurns()) {
            if (turn.userText() != null) {
                text.append("user: ").append(turn.userText()).append('\n');
            }
            if (turn.assistantText() != null) {
                text.append("assistant: ").append(turn.assistantText()).append('\n');
            }
        }
        return objects.put(key, text.toString().getBytes(StandardCharsets.UTF_8), "text/plain; charset=utf-8")
                .chain(() -> chats.attachTranscript(runId, key))
                .onFailure().invoke(f -> LOG.log(System.Logger.Level.WARNING, "transcript of run " + runId
                        + " not stored: " + f))
                .onFailure().recoverWithNull()
                .chain(() -> find(run.organizationId(), run.workflowId(), runId));
    }

    private static void open(TextChatRecord record) {
        if (record.run().completed() || record.session().completed()) {
            throw new DomainRuleViolation(ENDED);
        }
    }

    private static void checkRevision(TextChatRecord record, Integer expected) {
        if (expected != null && expected != record.revision()) {
            throw new RevisionConflictException(MOVED_ON, expected, record.revision());
        }
    }

    private static RevisionConflictException conflict(Integer expected, int read, TextChatRepository.Claim claim) {
        return new RevisionConflictException(claim.busy() ? BUSY : MOVED_ON, expected == null ? read : expected,
                claim.actualRevision());
    }

    private static long owner(Workflow workflow) {
        return workflow.createdBy() == null ? 0 : workflow.createdBy();
    }

    private static ChatTurn turn(String userText, Instant asked, TurnResult result, Instant answered) {
        String id = "turn_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        return new ChatTurn(id, asked, userText, result.assistantText(), answered, result.events(), result.usage(),
                result.state());
    }

    /** The reference's checkpoint: the state to resume from, and the turn it is the state after. */
    static Map<String, Object> checkpoint(ConversationState state, String anchorTurnId) {
        Map<String, Object> out = new LinkedHashMap<>(state.toMap());
        out.put("anchor_turn_id", anchorTurnId);
        out.put("tool_state", Map.of());
        return out;
    }
}
