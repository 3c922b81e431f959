package dev.voiceagent.application.qa;

import dev.voiceagent.application.conversation.ConversationModels;
import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.conversation.ModelUnavailableException;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.ChatRuns;
import dev.voiceagent.domain.conversation.FeedbackEvents;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.qa.CallReview;
import dev.voiceagent.domain.qa.CallReview.Segment;
import dev.voiceagent.domain.qa.QaNode;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * A QA node's review of a completed run, as the reference's post-call QA does: the run's log split by the node that
 * held each part ({@link CallReview#segments}), each part's transcript and figures given to the model with the node's
 * reviewer prompt (the conversation before it summarized by the model for the parts after the first), the answers read
 * as tags, summary, score and sentiment into the run's annotations (qa_&lt;node id&gt;, and the tags of every review at
 * the top), the tokens added to the run's usage as "QAAnalysis|||&lt;model&gt;". A call the node leaves out (too
 * short, voicemail, outside the sample) is stored as skipped with the reason. A model that fails transiently (it was
 * already asked again by its adapter) is asked again {@value #ATTEMPTS} times in all, with a growing pause; a part
 * whose model still fails is stored with the failure, and the review is complete either way: the run's completion
 * deliveries and metering, which wait for it, go on.
 */
public class QaReviews {

    /** How often the model is asked for one answer, at most. */
    public static final int ATTEMPTS = 3;
    static final String USAGE_PREFIX = "QAAnalysis|||";
    private static final System.Logger LOG = System.getLogger(QaReviews.class.getName());

    private final WorkflowRunRepository runs;
    private final WorkflowRepository workflows;
    private final ConversationModels models;
    private final LanguageModel model;
    private final RandomGenerator random;
    private final Duration firstPause;

    /** @param firstPause the pause before the second attempt; each later pause doubles it (the reference: 2 s) */
    public QaReviews(WorkflowRunRepository runs, WorkflowRepository workflows, ConversationModels models,
            LanguageModel model, RandomGenerator random, Duration firstPause) {
        this.runs = runs;
        this.workflows = workflows;
        this.models = models;
        this.model = model;
        this.random = random;
        this.firstPause = firstPause;
    }

    /** What became of a review: stored on the run, or not (the run or its node is gone: nothing to retry). */
    public record Outcome(boolean stored, String summary) {
    }

    /** Reviews run {@code runId} of the organization with its QA node {@code nodeId}, and stores the review. */
    public Uni<Outcome> review(long organizationId, long runId, String nodeId) {
        return runs.findById(runId).map(found -> found.filter(r -> r.organizationId() == organizationId))
                .chain(found -> {
                    if (found.isEmpty()) {
                        return Uni.createFrom().item(new Outcome(false, "The run no longer exists"));
                    }
                    WorkflowRun run = found.get();
                    return workflows.find(organizationId, run.workflowId()).chain(workflow -> workflows
                            .findVersion(organizationId, run.workflowId(), run.definitionId()).chain(version -> {
                                Optional<QaNode> node = version.flatMap(v -> QaNode.of(v.definition()).stream()
                                        .filter(n -> n.id().equals(nodeId)).findFirst());
                                if (workflow.isEmpty() || node.isEmpty()) {
                                    return Uni.createFrom().item(new Outcome(false, "The QA node is gone"));
                                }
                                if (!node.get().enabled()) {
                                    return Uni.createFrom().item(new Outcome(false, "The QA node is disabled"));
                                }
                                long owner = workflow.get().createdBy() == null ? 0 : workflow.get().createdBy();
                                return review(run, version.get(), node.get(), owner);
                            }));
                });
    }

    private Uni<Outcome> review(WorkflowRun run, WorkflowVersion version, QaNode node, long owner) {
        Optional<String> skipped = node.skipReason(run, 1 + random.nextInt(100));
        if (skipped.isPresent()) {
            Map<String, Object> review = new LinkedHashMap<>();
            review.put("skipped", true);
            review.put("reason", skipped.get());
            return store(run, node, review, null, TokenUsage.ZERO).map(stored -> new Outcome(stored,
                    "skipped: " + skipped.get()));
        }
        List<Map<String, Object>> events = events(run);
        if (events.isEmpty()) {
            return store(run, node, failed("no_transcript"), null, TokenUsage.ZERO)
                    .map(stored -> new Outcome(stored, "no transcript"));
        }
        return endpoint(run, version, node, owner).chain(endpoint -> {
            if (endpoint.isEmpty()) {
                return store(run, node, failed("no_api_key"), null, TokenUsage.ZERO)
                        .map(stored -> new Outcome(stored, "no model"));
            }
            return segments(run, version, node, endpoint.get(), events);
        });
    }

    /** The model the node asks: its own (provider, model, key, endpoint) or the workflow's; empty when none is. */
    private Uni<Optional<ModelEndpoint>> endpoint(WorkflowRun run, WorkflowVersion version, QaNode node, long owner) {
        if (node.ownModel()) {
            if (node.apiKey() == null && !"simulator".equals(node.provider())) {
                return Uni.createFrom().item(Optional.empty());
            }
            String name = node.model() == null ? "gpt-4.1" : node.model();
            Map<String, Object> settings = new LinkedHashMap<>();
            settings.put("provider", node.provider());
            settings.put("model", name);
            return Uni.createFrom().item(Optional.of(new ModelEndpoint(ModelService.LLM, node.provider(), name,
                    node.endpoint(), node.apiKey() == null ? List.of() : List.of(node.apiKey()), settings, false)));
        }
        return models.languageModel(run.organizationId(), owner, version.configurations()).map(Optional::of)
                .onFailure(DomainRuleViolation.class).recoverWithItem(Optional.empty());
    }

    private Uni<Outcome> segments(WorkflowRun run, WorkflowVersion version, QaNode node, ModelEndpoint endpoint,
            List<Map<String, Object>> events) {
        List<Segment> segments = CallReview.segments(events, version.definition());
        Instant start = CallReview.start(events);
        boolean wholeCall = segments.size() == 1 && CallReview.WHOLE_CALL.equals(segments.getFirst().nodeId());
        Map<String, Object> results = new LinkedHashMap<>();
        TokenUsage[] used = {TokenUsage.ZERO};
        StringBuilder before = new StringBuilder();
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (Segment segment : segments) {
            chain = chain.chain(() -> {
                String transcript = CallReview.transcript(segment.events(), start);
                if (transcript.isBlank()) {
                    return Uni.createFrom().voidItem();
                }
                Map<String, Object> metrics = CallReview.metrics(segment.events(),
                        wholeCall ? run.durationSeconds() : null);
                Uni<String> previous = before.isEmpty() ? Uni.createFrom().item("")
                        : ask(endpoint, CallReview.CONVERSATION_SUMMARY_PROMPT, "## Conversation\n" + before, 1)
                                .map(reply -> {
                                    used[0] = used[0].plus(reply.usage());
                                    return reply.text() == null ? "" : reply.text();
                                })
                                .onFailure().recoverWithItem(f -> {
                                    LOG.log(System.Logger.Level.WARNING, "QA of run {0}: no summary before {1}: {2}",
                                            run.id(), segment.nodeName(), f.getMessage());
                                    return "";
                                });
                return previous.chain(summary -> ask(endpoint, CallReview.systemPrompt(node.systemPrompt(),
                                CallReview.nodeSummary(segment), summary, transcript, metrics),
                                "## Transcript\n" + transcript, 1))
                        .map(reply -> {
                            used[0] = used[0].plus(reply.usage());
                            return CallReview.nodeResult(segment.nodeName(), reply.text());
                        })
                        .onFailure().recoverWithItem(f -> CallReview.failedNode(segment.nodeName(), f.getMessage()))
                        .invoke(result -> {
                            results.put(segment.nodeId(), result);
                            before.append(before.isEmpty() ? "" : "\n").append(transcript);
                        })
                        .replaceWithVoid();
            });
        }
        return chain.chain(() -> {
            Map<String, Object> review = new LinkedHashMap<>();
            if (results.isEmpty()) {
                review.put("error", "empty_transcript");
            }
            review.put("node_results", results);
            review.put("model", endpoint.model());
            if (!used[0].equals(TokenUsage.ZERO)) {
                review.put("token_usage", used[0].toMap());
            }
            return store(run, node, review, endpoint.model(), used[0]).map(stored -> new Outcome(stored,
                    results.size() + " part(s) reviewed with " + endpoint.model()));
        });
    }

    /** One answer, asked again after a growing pause while the model fails transiently, {@value #ATTEMPTS} times. */
    private Uni<ModelReply> ask(ModelEndpoint endpoint, String system, String user, int attempt) {
        ModelRequest request = new ModelRequest(List.of(ChatMessage.system(system), ChatMessage.user(user)), List.of());
        return model.complete(endpoint, request).onFailure(f -> attempt < ATTEMPTS && worthAnotherTry(f))
                .recoverWithUni(f -> Uni.createFrom().voidItem().onItem().delayIt()
                        .by(firstPause.multipliedBy(1L << (attempt - 1)))
                        .chain(() -> ask(endpoint, system, user, attempt + 1)));
    }

    /** A failure the model's adapter already found worth asking again for (not a refusal). */
    private static boolean worthAnotherTry(Throwable failure) {
        return failure instanceof ModelUnavailableException unavailable && unavailable.attempts() > 1;
    }

    private Uni<Boolean> store(WorkflowRun run, QaNode node, Map<String, Object> review, String modelName,
            TokenUsage usage) {
        return runs.amend(run.organizationId(), run.id(), stored -> {
            WorkflowRun annotated = stored.withAnnotations(CallReview.annotated(stored.annotations(),
                    node.annotationKey(), review));
            return modelName == null || usage.equals(TokenUsage.ZERO) ? annotated
                    : annotated.withUsage(ChatRuns.usageWith(stored.usageInfo(), USAGE_PREFIX + modelName, usage));
        }).map(Optional::isPresent);
    }

    private static Map<String, Object> failed(String error) {
        Map<String, Object> review = new LinkedHashMap<>();
        review.put("error", error);
        review.put("node_results", Map.of());
        return review;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> events(WorkflowRun run) {
        List<?> events = run.logs() == null ? null : JsonTree.asList(run.logs().get(FeedbackEvents.KEY));
        if (events == null) {
            return List.of();
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object e : events) {
            if (e instanceof Map<?, ?> map) {
                out.add((Map<String, Object>) map);
            }
        }
        return out;
    }
}
