package dev.voiceagent.deploy;

import dev.voiceagent.adapters.postgres.shared.ReplicaIdentity;
import dev.voiceagent.application.conversation.ConversationModels;
import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.qa.QaReviews;
import dev.voiceagent.application.tool.CredentialRepository;
import dev.voiceagent.application.tool.ToolHttp;
import dev.voiceagent.application.webhook.NodeWebhookDelivery;
import dev.voiceagent.application.webhook.RunLinks;
import dev.voiceagent.application.webhook.WebhookEndpointRepository;
import dev.voiceagent.application.webhook.WebhookOutbox;
import dev.voiceagent.application.webhook.WebhookSender;
import dev.voiceagent.application.webhook.WebhookService;
import dev.voiceagent.application.workflow.RunArtifactUseCases.PublicArtifactLinksUseCase;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Random;

/**
 * Webhook endpoints and their delivery (the sender is the models adapter's, through the outbound guard), with the
 * workflows' webhook nodes and QA reviews that go through the same outbox.
 */
@ApplicationScoped
public class WebhookProducers {

    @Produces
    @Singleton
    WebhookService webhooks(WebhookEndpointRepository endpoints, WebhookOutbox outbox, WebhookSender sender,
            Clock clock, SecureRandom random, ReplicaIdentity replica, WorkflowRunRepository runs,
            WorkflowRepository workflows, CredentialRepository credentials, ToolHttp http,
            PublicArtifactLinksUseCase artifactLinks, ConversationModels models, LanguageModel languageModel,
            VoiceAgentConfig config) {
        // bean types: WebhookUseCases and DeliverWebhooksUseCase
        RunLinks links = new RunLinks(artifactLinks, config.publicLinks().baseUrl());
        return new WebhookService(endpoints, outbox, sender, new NodeWebhookDelivery(runs, workflows, credentials,
                http, links), new QaReviews(runs, workflows, models, languageModel, new Random(),
                config.runs().qaRetryPause()), runs, links, clock, random, new Random(), replica.id());
    }
}
