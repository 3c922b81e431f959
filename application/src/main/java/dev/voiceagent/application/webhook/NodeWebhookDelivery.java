package dev.voiceagent.application.webhook;

import dev.voiceagent.application.shared.OutboundRefusedException;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.application.tool.CredentialRepository;
import dev.voiceagent.application.tool.ToolHttp;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.tool.Credential;
import dev.voiceagent.domain.tool.NodeWebhook;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A workflow webhook node's delivery: the run and the version it ran are read, the node's request planned
 * ({@link NodeWebhook}) with its credential, and sent through the tools' guarded HTTP. A node, run or credential
 * that is gone, a node misconfigured, or an address the guard refuses is final; an unreachable endpoint is retried.
 */
public class NodeWebhookDelivery {

    private final WorkflowRunRepository runs;
    private final WorkflowRepository workflows;
    private final CredentialRepository credentials;
    private final ToolHttp http;
    private final RunLinks links;

    public NodeWebhookDelivery(WorkflowRunRepository runs, WorkflowRepository workflows,
            CredentialRepository credentials, ToolHttp http, RunLinks links) {
        this.links = links;
        this.runs = runs;
        this.workflows = workflows;
        this.credentials = credentials;
        this.http = http;
    }

    public Uni<WebhookSender.Result> send(WebhookOutbox.Due due) {
        long org = due.organizationId();
        long started = System.nanoTime();
        return runs.findById(due.workflowRunId()).chain(found -> {
                    WorkflowRun run = found.filter(r -> r.organizationId() == org)
                            .orElseThrow(() -> new DomainRuleViolation("The run no longer exists"));
                    return workflows.findVersion(org, run.workflowId(), run.definitionId()).chain(version -> {
                        WorkflowDefinition.Node node = version.flatMap(v -> v.definition().nodes().stream()
                                .filter(n -> n.id().equals(due.nodeId())).findFirst()).orElse(null);
                        if (node == null || !NodeWebhook.enabled(node.data())) {
                            throw new DomainRuleViolation("The webhook node is gone or disabled");
                        }
                        Uni<Optional<Credential>> credential = node.data().get("credential_uuid") instanceof String uuid
                                && !uuid.isBlank() ? credentials.find(org, uuid).invoke(c -> {
                                    if (c.isEmpty()) {
                                        throw new DomainRuleViolation("The webhook node's credential no longer exists");
                                    }
                                }) : Uni.createFrom().item(Optional.empty());
                        return credential.chain(c -> http.send(NodeWebhook.plan(node.data(), context(run, links),
                                c.orElse(null))));
                    });
                })
                .map(reply -> WebhookSender.Result.answered(reply.statusCode(), reply.durationMs(), reply.body(),
                        reply.headers() == null ? null : reply.headers().get("retry-after")))
                .onFailure(f -> f instanceof DomainRuleViolation || f instanceof OutboundRefusedException)
                .recoverWithItem(f -> WebhookSender.Result.unanswered(true, f.getMessage(), millis(started)))
                .onFailure(UpstreamServiceException.class)
                .recoverWithItem(f -> WebhookSender.Result.unanswered(false, f.getMessage(), millis(started)));
    }

    /**
     * What the node's templates may name: the run's results, the links to its recording and transcript
     * ({@code recording_url}, {@code transcript_url}, ... as of this attempt, {@link RunLinks}), its initial
     * context and its annotations (its QA nodes' reviews, which a webhook node waits for: {@code annotations.tags},
     * {@code annotations.qa_<node>...}).
     */
    static Map<String, Object> context(WorkflowRun run, RunLinks links) {
        Map<String, Object> context = new LinkedHashMap<>(run.results());
        context.putAll(links.of(run));
        context.put("initial_context", run.initialContext());
        context.put("annotations", run.annotations() == null ? Map.of() : run.annotations());
        return context;
    }

    private static long millis(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }
}
