package dev.voiceagent.application.webhook;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.webhook.WebhookEndpointRepository.Delivery;
import dev.voiceagent.application.webhook.WebhookEndpointRepository.Endpoint;
import io.smallrye.mutiny.Uni;
import java.util.List;

/** Webhook endpoints of an organization: what they receive, their signing secret, their deliveries. */
public interface WebhookUseCases {

    /** An endpoint with its signing secret: only in the answers to create and rotate. */
    record WithSecret(Endpoint endpoint, String secret) {
    }

    interface CreateWebhookEndpointUseCase {

        Uni<WithSecret> create(Principal principal, String url, String description, List<String> eventTypes,
                Boolean enabled);
    }

    interface ListWebhookEndpointsUseCase {

        Uni<List<Endpoint>> list(Principal principal);
    }

    interface GetWebhookEndpointUseCase {

        Uni<Endpoint> get(Principal principal, long id);
    }

    interface UpdateWebhookEndpointUseCase {

        Uni<Endpoint> update(Principal principal, long id, String url, String description, List<String> eventTypes,
                Boolean enabled);
    }

    interface DeleteWebhookEndpointUseCase {

        Uni<Void> delete(Principal principal, long id);
    }

    interface RotateWebhookSecretUseCase {

        Uni<WithSecret> rotate(Principal principal, long id);
    }

    interface ListWebhookDeliveriesUseCase {

        Uni<List<Delivery>> deliveries(Principal principal, long id, int limit);
    }

    interface RedeliverWebhookUseCase {

        Uni<Void> redeliver(Principal principal, long id, long deliveryId);
    }

    /** The delivery tick: sends what is due; how many were attempted. */
    interface DeliverWebhooksUseCase {

        Uni<Integer> deliverDue();
    }
}
