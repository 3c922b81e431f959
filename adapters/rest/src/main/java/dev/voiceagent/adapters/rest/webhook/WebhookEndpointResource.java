package dev.voiceagent.adapters.rest.webhook;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.webhook.WebhookEndpointRepository.Attempt;
import dev.voiceagent.application.webhook.WebhookEndpointRepository.Delivery;
import dev.voiceagent.application.webhook.WebhookEndpointRepository.Endpoint;
import dev.voiceagent.application.webhook.WebhookUseCases;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Signed webhooks (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature "v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>"). Events are written to an outbox with the change that raised them and delivered by any
 * replica, retried on network errors, 408, 429 and 5xx for about 24 hours, every attempt recorded.
 */
@Path("/api/v1/webhook-endpoints")
public class WebhookEndpointResource {

    public record WebhookEndpointResponse(long id, String url, @Schema(nullable = true) String description,
            @Schema(description = "Empty: every event type") List<String> eventTypes, boolean enabled,
            @Schema(nullable = true, description = "Until then the previous secret also signs") String
                    previousSecretExpiresAt, String createdAt, String updatedAt,
            @Schema(nullable = true, description = "Only in the answers to create and rotate-secret") String secret) {

        static WebhookEndpointResponse of(Endpoint e, String secret) {
            return new WebhookEndpointResponse(e.id(), e.url(), e.description(), e.eventTypes(), e.enabled(),
                    text(e.previousSecretExpiresAt()), text(e.createdAt()), text(e.updatedAt()), secret);
        }
    }

    public record CreateWebhookEndpointRequest(@NotBlank @Size(max = 2000) String url,
            @Schema(nullable = true) @Size(max = 500) String description,
            @Schema(nullable = true) @Size(max = 20) List<@NotNull @Size(max = 100) String> eventTypes,
            @Schema(nullable = true) Boolean enabled) {
    }

    public record UpdateWebhookEndpointRequest(@Schema(nullable = true) @Size(max = 2000) String url,
            @Schema(nullable = true) @Size(max = 500) String description,
            @Schema(nullable = true) @Size(max = 20) List<@NotNull @Size(max = 100) String> eventTypes,
            @Schema(nullable = true) Boolean enabled) {
    }

    public record WebhookAttemptResponse(int attempt, @Schema(nullable = true) Integer status,
            @Schema(nullable = true) String error, long durationMs, @Schema(nullable = true) String responseExcerpt,
            String attemptedAt) {

        static WebhookAttemptResponse of(Attempt a) {
            return new WebhookAttemptResponse(a.attempt(), a.status(), a.error(), a.durationMs(), a.responseExcerpt(),
                    text(a.attemptedAt()));
        }
    }

    public record WebhookDeliveryResponse(long id, String messageId, String eventType,
            @Schema(enumeration = {"pending", "delivered", "dead"}) String state, int attempts,
            @Schema(nullable = true) String nextAttemptAt, String createdAt, @Schema(nullable = true) String finishedAt,
            List<WebhookAttemptResponse> attemptLog) {

        static WebhookDeliveryResponse of(Delivery d) {
            return new WebhookDeliveryResponse(d.id(), d.messageId(), d.eventType(), d.state(), d.attempts(),
                    "pending".equals(d.state()) ? text(d.nextAttemptAt()) : null, text(d.createdAt()),
                    text(d.finishedAt()), d.attemptLog().stream().map(WebhookAttemptResponse::of).toList());
        }
    }

    public record RedeliverResponse(boolean queued) {
    }

    public record DeletedResponse(boolean deleted) {
    }

    private final Caller caller;
    private final WebhookUseCases.CreateWebhookEndpointUseCase createWebhookEndpoint;
    private final WebhookUseCases.ListWebhookEndpointsUseCase listWebhookEndpoints;
    private final WebhookUseCases.GetWebhookEndpointUseCase getWebhookEndpoint;
    private final WebhookUseCases.UpdateWebhookEndpointUseCase updateWebhookEndpoint;
    private final WebhookUseCases.DeleteWebhookEndpointUseCase deleteWebhookEndpoint;
    private final WebhookUseCases.RotateWebhookSecretUseCase rotateWebhookSecret;
    private final WebhookUseCases.ListWebhookDeliveriesUseCase listWebhookDeliveries;
    private final WebhookUseCases.RedeliverWebhookUseCase redeliverWebhook;

    public WebhookEndpointResource(Caller caller, WebhookUseCases.CreateWebhookEndpointUseCase createWebhookEndpoint,
            WebhookUseCases.ListWebhookEndpointsUseCase listWebhookEndpoints,
            WebhookUseCases.GetWebhookEndpointUseCase getWebhookEndpoint,
            WebhookUseCases.UpdateWebhookEndpointUseCase updateWebhookEndpoint,
            WebhookUseCases.DeleteWebhookEndpointUseCase deleteWebhookEndpoint,
            WebhookUseCases.RotateWebhookSecretUseCase rotateWebhookSecret,
            WebhookUseCases.ListWebhookDeliveriesUseCase listWebhookDeliveries,
            WebhookUseCases.RedeliverWebhookUseCase redeliverWebhook) {
        this.caller = caller;
        this.createWebhookEndpoint = createWebhookEndpoint;
        this.listWebhookEndpoints = listWebhookEndpoints;
        this.getWebhookEndpoint = getWebhookEndpoint;
        this.updateWebhookEndpoint = updateWebhookEndpoint;
        this.deleteWebhookEndpoint = deleteWebhookEndpoint;
        this.rotateWebhookSecret = rotateWebhookSecret;
        this.listWebhookDeliveries = listWebhookDeliveries;
        this.redeliverWebhook = redeliverWebhook;
    }

    @GET
    @Operation(summary = "List Webhook Endpoints")
    public Uni<List<WebhookEndpointResponse>> list() {
        return listWebhookEndpoints.list(caller.principal())
                .map(list -> list.stream().map(e -> WebhookEndpointResponse.of(e, null)).toList());
    }

    @POST
    @Operation(summary = "Create Webhook Endpoint", description = "The signing secret (whsec_...) is in this answer"
            + " only")
    public Uni<WebhookEndpointResponse> create(@NotNull @Valid CreateWebhookEndpointRequest body) {
        return createWebhookEndpoint.create(caller.principal(), body.url(), body.description(), body.eventTypes(), body.enabled())
                .map(w -> WebhookEndpointResponse.of(w.endpoint(), w.secret()));
    }

    @GET
    @Path("/{endpoint_id}")
    @Operation(summary = "Get Webhook Endpoint")
    public Uni<WebhookEndpointResponse> get(@PathParam("endpoint_id") long id) {
        return getWebhookEndpoint.get(caller.principal(), id).map(e -> WebhookEndpointResponse.of(e, null));
    }

    @PATCH
    @Path("/{endpoint_id}")
    @Operation(summary = "Update Webhook Endpoint", description = "Fields left out keep their value")
    public Uni<WebhookEndpointResponse> update(@PathParam("endpoint_id") long id,
            @NotNull @Valid UpdateWebhookEndpointRequest body) {
        return updateWebhookEndpoint.update(caller.principal(), id, body.url(), body.description(), body.eventTypes(),
                body.enabled()).map(e -> WebhookEndpointResponse.of(e, null));
    }

    @DELETE
    @Path("/{endpoint_id}")
    @Operation(summary = "Delete Webhook Endpoint", description = "Its pending deliveries go with it")
    public Uni<DeletedResponse> delete(@PathParam("endpoint_id") long id) {
        return deleteWebhookEndpoint.delete(caller.principal(), id).replaceWith(new DeletedResponse(true));
    }

    @POST
    @Path("/{endpoint_id}/rotate-secret")
    @Operation(summary = "Rotate Webhook Secret", description = "A new secret, in this answer only; the previous one"
            + " also signs for 24 hours")
    public Uni<WebhookEndpointResponse> rotate(@PathParam("endpoint_id") long id) {
        return rotateWebhookSecret.rotate(caller.principal(), id).map(w -> WebhookEndpointResponse.of(w.endpoint(), w.secret()));
    }

    @GET
    @Path("/{endpoint_id}/deliveries")
    @Operation(summary = "List Webhook Deliveries", description = "Newest first, each with its attempts")
    public Uni<List<WebhookDeliveryResponse>> deliveries(@PathParam("endpoint_id") long id,
            @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(100) int limit) {
        return listWebhookDeliveries.deliveries(caller.principal(), id, limit)
                .map(list -> list.stream().map(WebhookDeliveryResponse::of).toList());
    }

    @POST
    @Path("/{endpoint_id}/deliveries/{delivery_id}/redeliver")
    @Operation(summary = "Redeliver Webhook", description = "The delivery is sent again now (its attempts are kept)")
    public Uni<RedeliverResponse> redeliver(@PathParam("endpoint_id") long id,
            @PathParam("delivery_id") long deliveryId) {
        return redeliverWebhook.redeliver(caller.principal(), id, deliveryId).replaceWith(new RedeliverResponse(true));
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
