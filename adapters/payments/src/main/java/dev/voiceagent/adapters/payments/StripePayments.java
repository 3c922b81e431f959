package dev.voiceagent.adapters.payments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.application.billing.PaymentEvent;
import dev.voiceagent.application.billing.Payments;
import dev.voiceagent.application.shared.UpstreamServiceException;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;

/**
 * Stripe's API as Stripe documents it: form-encoded POSTs with nested keys (line_items[0][price]), the secret key
 * as a Bearer token, an Idempotency-Key on every create; Checkout Sessions (mode subscription or payment) and
 * Billing Portal sessions; webhook events verified by {@link StripeSignature}. A refusal is a 502 carrying Stripe's
 * own message; no answer within the time-out is a 502 saying so.
 */
public class StripePayments implements Payments {

    public record Settings(String secretKey, String webhookSecret, URI apiBase, Duration timeout,
            Duration tolerance) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Settings settings;
    private final HttpClient http;

    public StripePayments(Settings settings) {
        this.settings = settings;
        this.http = HttpClient.newBuilder().connectTimeout(settings.timeout()).build();
    }

    @Override
    public String provider() {
        return "stripe";
    }

    @Override
    public Uni<String> createCustomer(long organizationId, String idempotencyKey) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("description", "Organization " + organizationId);
        form.put("metadata[organization_id]", Long.toString(organizationId));
        return post("/v1/customers", form, idempotencyKey).map(body -> body.path("id").asText());
    }

    @Override
    public Uni<String> subscriptionCheckout(String customerId, long organizationId, String priceId, String plan,
            String successUrl, String cancelUrl, String idempotencyKey) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("mode", "subscription");
        form.put("customer", customerId);
        form.put("client_reference_id", Long.toString(organizationId));
        form.put("line_items[0][price]", priceId);
        form.put("line_items[0][quantity]", "1");
        form.put("success_url", successUrl);
        form.put("cancel_url", cancelUrl);
        form.put("metadata[organization_id]", Long.toString(organizationId));
        form.put("metadata[plan]", plan);
        form.put("subscription_data[metadata][organization_id]", Long.toString(organizationId));
        form.put("subscription_data[metadata][plan]", plan);
        return post("/v1/checkout/sessions", form, idempotencyKey).map(body -> body.path("url").asText());
    }

    @Override
    public Uni<String> creditCheckout(String customerId, long organizationId, long credits, long amountMinor,
            String currency, String successUrl, String cancelUrl, String idempotencyKey) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("mode", "payment");
        form.put("customer", customerId);
        form.put("client_reference_id", Long.toString(organizationId));
        form.put("line_items[0][price_data][currency]", currency.toLowerCase(Locale.ROOT));
        form.put("line_items[0][price_data][unit_amount]", Long.toString(amountMinor));
        form.put("line_items[0][price_data][product_data][name]", credits + " voice agent credits");
        form.put("line_items[0][quantity]", "1");
        form.put("success_url", successUrl);
        form.put("cancel_url", cancelUrl);
        form.put("metadata[organization_id]", Long.toString(organizationId));
        form.put("metadata[purpose]", "credits");
        form.put("metadata[credits]", Long.toString(credits));
        return post("/v1/checkout/sessions", form, idempotencyKey).map(body -> body.path("url").asText());
    }

    @Override
    public Uni<String> portal(String customerId, String returnUrl, String idempotencyKey) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("customer", customerId);
        form.put("return_url", returnUrl);
        return post("/v1/billing_portal/sessions", form, idempotencyKey).map(body -> body.path("url").asText());
    }

    @Override
    public PaymentEvent verify(byte[] payload, String signature, Instant now) {
        String problem = StripeSignature.check(settings.webhookSecret(), payload, signature, now,
                settings.tolerance());
        if (problem != null) {
            return new PaymentEvent.Rejected(problem);
        }
        try {
            return StripeEvents.parse(JSON.readTree(payload));
        } catch (IOException | RuntimeException e) {
            return new PaymentEvent.Rejected("The event is not valid JSON");
        }
    }

    private Uni<JsonNode> post(String path, Map<String, String> form, String idempotencyKey) {
        HttpRequest request = HttpRequest.newBuilder(settings.apiBase().resolve(path))
                .timeout(settings.timeout())
                .header("Authorization", "Bearer " + settings.secretKey())
                .header("Idempotency-Key", idempotencyKey)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(FormEncoding.encode(form)))
                .build();
        return Uni.createFrom().completionStage(() -> http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()))
                .onFailure().transform(StripePayments::unreachable)
                .map(response -> {
                    JsonNode body = parse(response.body());
                    if (response.statusCode() / 100 != 2) {
                        String message = body.path("error").path("message").asText("");
                        throw new UpstreamServiceException("Stripe refused the request (" + response.statusCode()
                                + ")" + (message.isBlank() ? "" : ": " + message));
                    }
                    return body;
                });
    }

    private static JsonNode parse(byte[] body) {
        try {
            return JSON.readTree(new String(body, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    private static Throwable unreachable(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                : failure;
        if (cause instanceof UpstreamServiceException) {
            return cause;
        }
        return new UpstreamServiceException(cause instanceof HttpTimeoutException
                ? "Stripe did not answer in time" : "Stripe is unreachable: " + cause);
    }
}
