package dev.voiceagent.application.webhook;

import dev.voiceagent.application.webhook.WebhookUseCases.WithSecret;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.webhook.WebhookEndpointRepository.Delivery;
import dev.voiceagent.application.webhook.WebhookEndpointRepository.Endpoint;
import dev.voiceagent.application.qa.QaReviews;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.webhook.WebhookEvent.RunCompleted;
import dev.voiceagent.domain.webhook.WebhookEvents;
import dev.voiceagent.domain.webhook.WebhookRetry;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.net.URI;
import java.net.URISyntaxException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Endpoints and their delivery. Secrets are "whsec_" + 24 random bytes in base64 (the Standard Webhooks form),
 * shown once; a rotation keeps the previous one signing for {@link #ROTATION_OVERLAP}. The tick claims due
 * deliveries under a lease on any replica and settles each attempt: delivered on a 2xx, retried on the schedule
 * for network errors, 408, 429 and 5xx, dead otherwise or when the schedule is spent. The same outbox carries a
 * workflow's webhook nodes and its QA nodes' reviews of a completed run.
 */
public class WebhookService implements WebhookUseCases.CreateWebhookEndpointUseCase,
        WebhookUseCases.ListWebhookEndpointsUseCase, WebhookUseCases.GetWebhookEndpointUseCase,
        WebhookUseCases.UpdateWebhookEndpointUseCase, WebhookUseCases.DeleteWebhookEndpointUseCase,
        WebhookUseCases.RotateWebhookSecretUseCase, WebhookUseCases.ListWebhookDeliveriesUseCase,
        WebhookUseCases.RedeliverWebhookUseCase, WebhookUseCases.DeliverWebhooksUseCase {

    public static final Duration ROTATION_OVERLAP = Duration.ofHours(24);
    static final Duration LEASE = Duration.ofMinutes(2);
    static final int BATCH = 20;
    static final int REVIEW_ATTEMPTS = 3;
    private static final String NOT_FOUND = "Webhook endpoint not found";
    private static final System.Logger LOG = System.getLogger(WebhookService.class.getName());

    private final WebhookEndpointRepository endpoints;
    private final WebhookOutbox outbox;
    private final WebhookSender sender;
    private final Clock clock;
    private final SecureRandom secrets;
    private final RandomGenerator jitter;
    private final String replica;
    private final NodeWebhookDelivery nodes;
    private final QaReviews reviews;
    private final WorkflowRunRepository runs;
    private final RunLinks links;

    public WebhookService(WebhookEndpointRepository endpoints, WebhookOutbox outbox, WebhookSender sender,
            NodeWebhookDelivery nodes, QaReviews reviews, WorkflowRunRepository runs, RunLinks links, Clock clock,
            SecureRandom secrets, RandomGenerator jitter, String replica) {
        this.nodes = nodes;
        this.reviews = reviews;
        this.runs = runs;
        this.links = links;
        this.endpoints = endpoints;
        this.outbox = outbox;
        this.sender = sender;
        this.clock = clock;
        this.secrets = secrets;
        this.jitter = jitter;
        this.replica = replica;
    }

    @Override
    public Uni<WithSecret> create(Principal principal, String url, String description, List<String> eventTypes,
            Boolean enabled) {
        String secret = newSecret();
        return endpoints.create(principal.organizationId(), url(url), description(description),
                        WebhookEvents.validate(eventTypes), enabled == null || enabled, secret)
                .map(endpoint -> new WithSecret(endpoint, secret));
    }

    @Override
    public Uni<List<Endpoint>> list(Principal principal) {
        return endpoints.list(principal.organizationId());
    }

    @Override
    public Uni<Endpoint> get(Principal principal, long id) {
        return endpoints.find(principal.organizationId(), id).map(found -> found.orElseThrow(
                () -> new ResourceNotFoundException(NOT_FOUND)));
    }

    @Override
    public Uni<Endpoint> update(Principal principal, long id, String url, String description, List<String> eventTypes,
            Boolean enabled) {
        return endpoints.update(principal.organizationId(), id, url == null ? null : url(url),
                        description == null ? null : description(description),
                        eventTypes == null ? null : WebhookEvents.validate(eventTypes), enabled)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)));
    }

    @Override
    public Uni<Void> delete(Principal principal, long id) {
        return endpoints.delete(principal.organizationId(), id).invoke(deleted -> {
            if (!deleted) {
                throw new ResourceNotFoundException(NOT_FOUND);
            }
        }).replaceWithVoid();
    }

    @Override
    public Uni<WithSecret> rotate(Principal principal, long id) {
        String secret = newSecret();
        return endpoints.rotate(principal.organizationId(), id, secret, clock.instant().plus(ROTATION_OVERLAP))
                .map(found -> new WithSecret(found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)),
                        secret));
    }

    @Override
    public Uni<List<Delivery>> deliveries(Principal principal, long id, int limit) {
        return get(principal, id).chain(endpoint -> endpoints.deliveries(principal.organizationId(), id, limit));
    }

    @Override
    public Uni<Void> redeliver(Principal principal, long id, long deliveryId) {
        return get(principal, id).chain(endpoint -> endpoints.redeliver(principal.organizationId(), id, deliveryId,
                clock.instant())).invoke(found -> {
                    if (!found) {
                        throw new ResourceNotFoundException("Delivery not found");
                    }
                }).replaceWithVoid();
    }

    @Override
    public Uni<Integer> deliverDue() {
        return outbox.claim(replica, clock.instant(), LEASE, BATCH).chain(due -> due.isEmpty()
                ? Uni.createFrom().item(0)
                : Multi.createFrom().iterable(due).onItem().transformToUni(d -> deliver(d).onFailure()
                                .recoverWithItem(failure -> {
                                    // the lease expires and another tick tries again
                                    LOG.log(System.Logger.Level.WARNING, "webhook delivery {0} not settled: {1}",
                                            d.deliveryId(), failure.toString());
                                    return false;
                                })).merge(8)
                        .collect().asList().map(List::size));
    }

    private Uni<Boolean> deliver(WebhookOutbox.Due due) {
        Instant started = clock.instant();
        Uni<WebhookSender.Result> sent = WebhookOutbox.QA_REVIEW.equals(due.eventType()) ? review(due)
                : due.nodeId() != null ? nodes.send(due) : body(due).chain(body -> sender.send(due.url(),
                        due.messageId(), started.getEpochSecond(), body, due.secrets()));
        return sent.chain(result -> {
                    Instant now = clock.instant();
                    WebhookOutbox.AttemptRecord attempt = new WebhookOutbox.AttemptRecord(due.attempt(),
                            result.status(), result.error(), result.durationMs(), result.responseExcerpt(), now);
                    boolean delivered = result.status() != null && result.status() / 100 == 2;
                    Instant next = delivered || result.refused() ? null
                            : WebhookRetry.after(due.attempt(), result.status(), result.retryAfter(),
                                    jitter.nextDouble()).map(now::plus).orElse(null);
                    return outbox.settle(due.deliveryId(), replica, attempt, delivered, next);
                });
    }

    /**
     * A QA node's review of the run (see {@link QaReviews}): settled as delivered (200) once stored, final when the run
     * or its node is gone; a review that could not be stored (the database failed) is tried again on the schedule, at
     * most {@value #REVIEW_ATTEMPTS} times, since the run's completion waits for it.
     */
    private Uni<WebhookSender.Result> review(WebhookOutbox.Due due) {
        long started = System.nanoTime();
        return reviews.review(due.organizationId(), due.workflowRunId(), due.nodeId())
                .map(outcome -> outcome.stored() ? WebhookSender.Result.answered(200, millis(started),
                        outcome.summary(), null) : WebhookSender.Result.unanswered(true, outcome.summary(),
                        millis(started)))
                .onFailure().recoverWithItem(f -> WebhookSender.Result.unanswered(due.attempt() >= REVIEW_ATTEMPTS,
                        "The QA review was not stored: " + f.getMessage(), millis(started)));
    }

    private static long millis(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }

    /**
     * What an endpoint is sent: the event as raised, and a run.completed with its run's results and links as of now
     * and, when QA nodes reviewed the run, its annotations (the reviews and their tags). As of now: a carrier's final
     * report can complete a call's run while its media session is still finishing, and the event raised then has no
     * disposition and none of what the call gathered; its delivery waits for the session (the outbox holds it), so the
     * run read here has them.
     */
    private Uni<String> body(WebhookOutbox.Due due) {
        if (!RunCompleted.TYPE.equals(due.eventType()) || due.workflowRunId() == null) {
            return Uni.createFrom().item(due.body());
        }
        return runs.findById(due.workflowRunId()).chain(found -> outbox.bodyWith(due.deliveryId(), found
                .filter(run -> run.organizationId() == due.organizationId()).map(WebhookService.this::completion)
                .orElse(RunLinks.NONE)));
    }

    private Map<String, Object> completion(WorkflowRun run) {
        Map<String, Object> data = new LinkedHashMap<>(run.results());
        data.putAll(links.of(run));
        if (run.annotations() != null && run.annotations().keySet().stream().anyMatch(k -> k.startsWith("qa_"))) {
            data.put("annotations", run.annotations());
        }
        return data;
    }

    private String newSecret() {
        byte[] bytes = new byte[24];
        secrets.nextBytes(bytes);
        return "whsec_" + Base64.getEncoder().encodeToString(bytes);
    }

    private static String url(String value) {
        if (value == null || value.isBlank() || value.length() > 2000) {
            throw new DomainRuleViolation("url is required (at most 2000 characters)");
        }
        try {
            URI uri = new URI(value.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
                throw new DomainRuleViolation("url must be an http(s) address: " + value);
            }
            return uri.toString();
        } catch (URISyntaxException e) {
            throw new DomainRuleViolation("url is not a valid address: " + value);
        }
    }

    private static String description(String value) {
        if (value != null && value.length() > 500) {
            throw new DomainRuleViolation("description: at most 500 characters");
        }
        return value == null || value.isBlank() ? null : value.strip();
    }
}
