package dev.voiceagent.adapters.payments;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceagent.application.billing.PaymentEvent;
import java.time.Instant;
import java.util.Locale;

/** Stripe event objects to what this service acts on; every other type is ignored. */
final class StripeEvents {

    private StripeEvents() {
    }

    static PaymentEvent parse(JsonNode event) {
        String id = event.path("id").asText(null);
        String type = event.path("type").asText("");
        JsonNode object = event.path("data").path("object");
        if (id == null || !event.path("created").isNumber() || !object.isObject()) {
            return new PaymentEvent.Rejected("The event lacks an id, a created time or a data object");
        }
        Instant created = Instant.ofEpochSecond(event.path("created").asLong());
        return switch (type) {
            case "checkout.session.completed", "checkout.session.async_payment_succeeded" -> {
                JsonNode metadata = object.path("metadata");
                long credits = metadata.path("credits").asLong(0);
                yield new PaymentEvent.CheckoutCompleted(id, created, object.path("id").asText(),
                        object.path("mode").asText(), text(object, "customer"), text(object, "subscription"),
                        credits, object.path("amount_total").isNumber() ? object.path("amount_total").asLong() : null,
                        text(object, "currency") == null ? null : text(object, "currency").toUpperCase(Locale.ROOT),
                        "paid".equals(object.path("payment_status").asText()), text(metadata, "plan"));
            }
            case "customer.subscription.created", "customer.subscription.updated",
                    "customer.subscription.deleted" -> new PaymentEvent.SubscriptionChanged(id, created,
                    text(object, "customer"), object.path("id").asText(), object.path("status").asText(),
                    text(object.path("metadata"), "plan"), periodEnd(object),
                    object.path("cancel_at_period_end").asBoolean(false));
            default -> new PaymentEvent.Ignored(id, type);
        };
    }

    /** current_period_end on the subscription (older API versions) or on its first item (newer ones). */
    private static Instant periodEnd(JsonNode subscription) {
        JsonNode end = subscription.path("current_period_end");
        if (!end.isNumber()) {
            end = subscription.path("items").path("data").path(0).path("current_period_end");
        }
        return end.isNumber() ? Instant.ofEpochSecond(end.asLong()) : null;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() ? value.asText() : null;
    }
}
