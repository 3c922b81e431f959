package dev.voiceagent.adapters.rest.billing;

import dev.voiceagent.adapters.rest.auth.PublicEndpoint;
import dev.voiceagent.application.billing.BillingUseCases;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The payment provider's notifications (Stripe's webhook endpoint). No API key: the Stripe-Signature header is the
 * authentication, verified over the exact bytes received. A completed credit purchase credits the organization
 * once however often it is delivered; a notification that fails verification is a 400 with the reason.
 */
@Path("/api/v1/billing/webhooks/stripe")
public class PaymentWebhookResource {

    public record WebhookReceipt(boolean received, String outcome) {
    }

    private final BillingUseCases.ReceivePaymentEventUseCase receivePaymentEvent;

    public PaymentWebhookResource(BillingUseCases.ReceivePaymentEventUseCase receivePaymentEvent) {
        this.receivePaymentEvent = receivePaymentEvent;
    }

    @POST
    @PublicEndpoint
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Receive Stripe Webhook", description = "Verified by Stripe-Signature (HMAC-SHA256 over"
            + " \"t.payload\", 5-minute tolerance); 400 when billing is not configured or the signature fails")
    public Uni<WebhookReceipt> receive(@HeaderParam("Stripe-Signature") String signature, byte[] payload) {
        return receivePaymentEvent.receive(payload == null ? new byte[0] : payload, signature)
                .map(r -> new WebhookReceipt(r.accepted(), r.outcome()));
    }
}
