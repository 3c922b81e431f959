package dev.voiceagent.adapters.scheduler;

import dev.voiceagent.application.webhook.WebhookUseCases.DeliverWebhooksUseCase;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/** Webhook delivery on every replica: each tick claims due deliveries under a lease and sends them. */
@ApplicationScoped
public class WebhookTicks {

    private static final Logger LOG = Logger.getLogger(WebhookTicks.class);

    private final DeliverWebhooksUseCase deliveries;

    public WebhookTicks(DeliverWebhooksUseCase deliveries) {
        this.deliveries = deliveries;
    }

    @Scheduled(identity = "webhook-deliveries", every = "${voiceagent.webhooks.deliver-every:1s}", delayed = "5s",
            concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> deliver() {
        return deliveries.deliverDue()
                .onFailure().invoke(f -> TickFailures.log(LOG, "webhook delivery tick", f))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
