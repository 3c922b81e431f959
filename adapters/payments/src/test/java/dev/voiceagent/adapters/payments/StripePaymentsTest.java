package dev.voiceagent.adapters.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.voiceagent.application.billing.PaymentEvent;
import dev.voiceagent.application.shared.UpstreamServiceException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Against a local server that answers as Stripe does and records what it is sent. */
class StripePaymentsTest {

    record Received(String method, String path, Map<String, String> headers, Map<String, String> form) {
    }

    private static final String SECRET = "sk_test_123";
    private static final String WEBHOOK_SECRET = "whsec_test";

    private HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private volatile String answer = "{}";
    private volatile long delayMillis;
    private StripePayments stripe;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String> form = new LinkedHashMap<>();
            for (String pair : body.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), v.getFirst()));
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers, form));
            try {
                Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        stripe = new StripePayments(new StripePayments.Settings(SECRET, WEBHOOK_SECRET,
                URI.create("http://127.0.0.1:" + server.getAddress().getPort()), Duration.ofMillis(800),
                Duration.ofMinutes(5)));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aCreditCheckoutIsAFormEncodedSessionWithTheKeyAndAnIdempotencyKey() {
        answer = "{\"id\":\"cs_test_1\",\"object\":\"checkout.session\",\"url\":\"https://checkout.stripe.com/c/pay/cs_test_1\"}";
        String url = stripe.creditCheckout("cus_9", 42, 2500, 2500, "USD", "https://app.example.com/ok?a=1&b=2",
                "https://app.example.com/cancel", "key-1").await().indefinitely();
        assertThat(url).isEqualTo("https://checkout.stripe.com/c/pay/cs_test_1");
        Received r = received.getFirst();
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/v1/checkout/sessions");
        assertThat(r.headers()).containsEntry("authorization", "Bearer " + SECRET)
                .containsEntry("idempotency-key", "key-1")
                .containsEntry("content-type", "application/x-www-form-urlencoded");
        assertThat(r.form()).containsEntry("mode", "payment").containsEntry("customer", "cus_9")
                .containsEntry("line_items[0][price_data][currency]", "usd")
                .containsEntry("line_items[0][price_data][unit_amount]", "2500")
                .containsEntry("line_items[0][quantity]", "1")
                .containsEntry("success_url", "https://app.example.com/ok?a=1&b=2")
                .containsEntry("metadata[organization_id]", "42").containsEntry("metadata[credits]", "2500")
                .containsEntry("client_reference_id", "42");
    }

    @Test
    void aSubscriptionCheckoutACustomerAndAPortalSession() {
        answer = "{\"id\":\"cus_1\",\"url\":\"https://billing.stripe.com/p/session/x\"}";
        assertThat(stripe.createCustomer(7, "customer-organization-7").await().indefinitely()).isEqualTo("cus_1");
        stripe.subscriptionCheckout("cus_1", 7, "price_pro", "pro", "https://a/ok", "https://a/no", "k2")
                .await().indefinitely();
        assertThat(stripe.portal("cus_1", "https://a/billing", "k3").await().indefinitely())
                .isEqualTo("https://billing.stripe.com/p/session/x");
        assertThat(received).extracting(Received::path)
                .containsExactly("/v1/customers", "/v1/checkout/sessions", "/v1/billing_portal/sessions");
        assertThat(received.get(0).headers()).containsEntry("idempotency-key", "customer-organization-7");
        assertThat(received.get(0).form()).containsEntry("metadata[organization_id]", "7");
        assertThat(received.get(1).form()).containsEntry("mode", "subscription")
                .containsEntry("line_items[0][price]", "price_pro")
                .containsEntry("subscription_data[metadata][plan]", "pro");
        assertThat(received.get(2).form()).containsEntry("customer", "cus_1")
                .containsEntry("return_url", "https://a/billing");
    }

    @Test
    void stripesRefusalIsAnUpstreamFailureCarryingItsMessage() {
        status = 400;
        answer = "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"No such customer: 'cus_x'\"}}";
        assertThatThrownBy(() -> stripe.portal("cus_x", "https://a", "k").await().indefinitely())
                .isInstanceOf(UpstreamServiceException.class).hasMessageContaining("No such customer: 'cus_x'")
                .hasMessageContaining("400");
    }

    @Test
    void noAnswerInTimeIsAnUpstreamFailure() {
        delayMillis = 2_000;
        assertThatThrownBy(() -> stripe.createCustomer(1, "k").await().atMost(Duration.ofSeconds(5)))
                .isInstanceOf(UpstreamServiceException.class).hasMessageContaining("did not answer in time");
    }

    @Test
    void aVerifiedCheckoutEventIsParsedAndATamperedOneRejected() {
        String payload = "{\"id\":\"evt_1\",\"type\":\"checkout.session.completed\",\"created\":1700000000,"
                + "\"data\":{\"object\":{\"id\":\"cs_1\",\"mode\":\"payment\",\"customer\":\"cus_9\","
                + "\"payment_status\":\"paid\",\"amount_total\":2500,\"currency\":\"usd\","
                + "\"metadata\":{\"credits\":\"2500\",\"organization_id\":\"42\"}}}}";
        byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        Instant now = Instant.now();
        String header = StripeSignature.header(WEBHOOK_SECRET, bytes, now.getEpochSecond());
        assertThat(stripe.verify(bytes, header, now)).isEqualTo(new PaymentEvent.CheckoutCompleted("evt_1",
                Instant.ofEpochSecond(1700000000), "cs_1", "payment", "cus_9", null, 2500, 2500L, "USD", true, null));
        byte[] tampered = payload.replace("2500", "9999").getBytes(StandardCharsets.UTF_8);
        assertThat(stripe.verify(tampered, header, now)).isInstanceOf(PaymentEvent.Rejected.class);
        String other = "{\"id\":\"evt_2\",\"type\":\"invoice.paid\",\"created\":1,\"data\":{\"object\":{}}}";
        byte[] otherBytes = other.getBytes(StandardCharsets.UTF_8);
        assertThat(stripe.verify(otherBytes, StripeSignature.header(WEBHOOK_SECRET, otherBytes, now.getEpochSecond()),
                now)).isEqualTo(new PaymentEvent.Ignored("evt_2", "invoice.paid"));
    }
}
