package dev.voiceagent.deploy;

import dev.voiceagent.adapters.postgres.shared.ReplicaIdentity;
import dev.voiceagent.application.webhook.WebhookEndpointRepository;
import dev.voiceagent.application.webhook.WebhookOutbox;
import dev.voiceagent.application.webhook.WebhookSender;
import dev.voiceagent.application.webhook.WebhookService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.security.SecureRandom;
import java.time.Clock;

/** Webhook endpoints and their delivery (the sender is the models adapter's, through the outbound guard). */
@ApplicationScoped
public class WebhookProducers {

    @Produces
    @Singleton
    WebhookService webhooks(WebhookEndpointRepository endpoints, WebhookOutbox outbox, WebhookSender sender,
            Clock clock, SecureRandom random, ReplicaIdentity replica,
            dev.voiceagent.application.workflow.WorkflowRunRepository runs,
            dev.voiceagent.application.workflow.WorkflowRepository workflows,
            dev.voiceagent.application.tool.CredentialRepository credentials,
            dev.voiceagent.application.tool.ToolHttp http) {
        // bean types: WebhookUseCases and DeliverWebhooksUseCase
        return new WebhookService(endpoints, outbox, sender, new dev.voiceagent.application.webhook.NodeWebhookDelivery(
                runs, workflows, credentials, http), clock, random, new java.util.Random(), replica.id());
    }
}
