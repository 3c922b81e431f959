package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.voiceagent.adapters.payments.StripeSignature;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.BrowserCaller;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeStripe;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An installation billing through Stripe (a local fake that checks every request as Stripe would), with credits
 * enforced: checkouts, the portal, signed webhooks credited exactly once, and a zero balance refusing new work.
 */
@QuarkusTest
@TestProfile(StripeBillingEndToEndTest.WithStripe.class)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeStripe.class)
class StripeBillingEndToEndTest {

    static final String WEBHOOK_SECRET = "whsec_test_secret";
    static final String WEBHOOK = "/api/v1/billing/webhooks/stripe";

    public static class WithStripe implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("voiceagent.billing.stripe.secret-key", FakeStripe.SECRET_KEY,
                    "voiceagent.billing.stripe.webhook-secret", WEBHOOK_SECRET,
                    "voiceagent.billing.plans.pro", "price_pro_monthly",
                    "voiceagent.billing.plans.gone", "price_gone",
                    "voiceagent.billing.default-plan", "pro",
                    "voiceagent.credits.enforce", "true",
                    "voiceagent.usage.price-per-second", "0.01");
        }
    }

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Vertx vertx;

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private Sql sql;
    private Api.Account account;
    private String key;

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void organization() {
        sql = new Sql(dataSource);
        account = Api.signUp("stripe");
        key = Api.createKey(account, "k");
    }

    private List<FakeStripe.Received> requestsOf(String customerOrOrganization) {
        return FakeStripe.REQUESTS.stream().filter(r -> r.form().containsValue(customerOrOrganization)).toList();
    }

    private String customer() {
        return sql.queryString("SELECT customer_id FROM billing_customers WHERE organization_id = ?",
                account.organizationId());
    }

    static ValidatableResponse deliver(String payload, String signature) {
        RequestSpecification request = given().contentType("application/json; charset=utf-8")
                .body(payload.getBytes(StandardCharsets.UTF_8));
        if (signature != null) {
            request.header("Stripe-Signature", signature);
        }
        return request.post(WEBHOOK).then();
    }

    static String signed(String payload, String secret, long timestamp) {
        return StripeSignature.header(secret, payload.getBytes(StandardCharsets.UTF_8), timestamp);
    }

    static String creditsPaid(String event, String session, String customer, long credits, long created) {
        return "{\"id\":\"" + event + "\",\"object\":\"event\",\"type\":\"checkout.session.completed\",\"created\":"
                + created + ",\"data\":{\"object\":{\"id\":\"" + session + "\",\"object\":\"checkout.session\","
                + "\"mode\":\"payment\",\"customer\":\"" + customer + "\",\"payment_status\":\"paid\","
                + "\"amount_total\":" + credits + ",\"currency\":\"usd\",\"metadata\":{\"credits\":\"" + credits
                + "\",\"purpose\":\"credits\"}}}}";
    }

    @Test
    void checkoutsAndThePortalGoThroughStripeWithACustomerMadeOnce() {
        as(key).get("/api/v1/organizations/billing/subscription").then().statusCode(200)
                .body("enabled", equalTo(true)).body("status", equalTo("none")).body("credits_enforced", equalTo(true));
        as(key).post("/api/v1/organizations/billing/subscription/portal").then().statusCode(400)
                .body("detail", containsString("no billing account yet"));
        as(key).body(Map.of()).post("/api/v1/organizations/billing/subscription/checkout").then().statusCode(200)
                .body("url", startsWith("https://checkout.stripe.test/c/pay/cs_test_"));
        String customer = customer();
        assertThat(customer).startsWith("cus_fake");
        as(key).body(Map.of("credits", 2500, "success_url", "https://app.example.com/paid"))
                .post("/api/v1/organizations/usage/mps-credits/purchase-url").then().statusCode(200)
                .body("checkout_url", startsWith("https://checkout.stripe.test/"));
        as(key).post("/api/v1/organizations/billing/subscription/portal").then().statusCode(200)
                .body("url", startsWith("https://billing.stripe.test/p/session/"));

        List<FakeStripe.Received> sent = requestsOf(Long.toString(account.organizationId()));
        assertThat(sent).extracting(FakeStripe.Received::path).containsExactly("/v1/customers",
                "/v1/checkout/sessions", "/v1/checkout/sessions");
        assertThat(sent.getFirst().idempotencyKey()).isEqualTo("customer-organization-" + account.organizationId());
        assertThat(sent).allSatisfy(r -> assertThat(r.idempotencyKey()).isNotBlank());
        assertThat(sent.get(1).form()).containsEntry("mode", "subscription").containsEntry("customer", customer)
                .containsEntry("line_items[0][price]", "price_pro_monthly")
                .containsEntry("success_url", "http://localhost:8081/billing?checkout=success");
        assertThat(sent.get(2).form()).containsEntry("mode", "payment")
                .containsEntry("line_items[0][price_data][unit_amount]", "2500")
                .containsEntry("line_items[0][price_data][currency]", "usd").containsEntry("metadata[credits]", "2500")
                .containsEntry("success_url", "https://app.example.com/paid");
        assertThat(requestsOf(customer).getLast().path()).isEqualTo("/v1/billing_portal/sessions");

        as(key).body(Map.of("plan", "enterprise")).post("/api/v1/organizations/billing/subscription/checkout").then()
                .statusCode(400).body("detail", equalTo("Unknown plan 'enterprise'; plans: gone, pro"));
        as(key).body(Map.of("plan", "gone")).post("/api/v1/organizations/billing/subscription/checkout").then()
                .statusCode(502).body("detail", containsString("No such price: 'price_gone'"));
        as(key).body(Map.of("credits", 10)).post("/api/v1/organizations/usage/mps-credits/purchase-url").then()
                .statusCode(400).body("detail", containsString("between 50 and 1000000"));
        assertThat(sql.queryLong("SELECT count(*) FROM billing_customers WHERE organization_id = ?",
                account.organizationId())).isEqualTo(1);
    }

    @Test
    void theWebhookVerifiesItsSignatureAndCreditsACompletedPurchaseExactlyOnce() throws Exception {
        as(key).body(Map.of("credits", 2500)).post("/api/v1/organizations/usage/mps-credits/purchase-url").then()
                .statusCode(200);
        String customer = customer();
        long now = Instant.now().getEpochSecond();
        String payload = creditsPaid("evt_1", "cs_paid_1", customer, 2500, now);

        deliver(payload, signed(payload, "whsec_wrong", now)).statusCode(400)
                .body("detail", containsString("No signatures found"));
        deliver(payload, signed(payload, WEBHOOK_SECRET, now - 301)).statusCode(400)
                .body("detail", containsString("tolerance"));
        deliver(payload, null).statusCode(400).body("detail", equalTo("Missing Stripe-Signature header"));
        deliver(payload.replace("2500", "250000"), signed(payload, WEBHOOK_SECRET, now)).statusCode(400);
        as(key).get("/api/v1/organizations/billing/credits").then().body("remaining_credits", equalTo(0));

        String signature = signed(payload, WEBHOOK_SECRET, now);
        deliver(payload, signature).statusCode(200).body("received", equalTo(true))
                .body("outcome", equalTo("credited 2500"));
        deliver(payload, signature).statusCode(200).body("outcome", equalTo("already credited")); // replayed
        // Stripe retries concurrently too: eight deliveries of another session at once credit it once
        String second = creditsPaid("evt_2", "cs_paid_2", customer, 500, now);
        String secondSignature = signed(second, WEBHOOK_SECRET, now);
        var pool = Executors.newFixedThreadPool(8);
        List<Future<Integer>> deliveries = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            deliveries.add(pool.submit((Callable<Integer>) () -> deliver(second, secondSignature).extract().statusCode()));
        }
        for (Future<Integer> delivery : deliveries) {
            assertThat(delivery.get()).isEqualTo(200);
        }
        pool.shutdown();

        as(key).get("/api/v1/organizations/billing/credits").then().statusCode(200)
                .body("remaining_credits", equalTo(3000)).body("total_quota", equalTo(3000))
                .body("total_count", equalTo(2)).body("ledger_entries[0].entry_type", equalTo("purchase"))
                .body("ledger_entries[0].correlation_id", equalTo("cs_paid_2"))
                .body("ledger_entries[0].balance_after", equalTo(3000))
                .body("ledger_entries[1].amount_minor", equalTo(2500))
                .body("ledger_entries[1].amount_currency", equalTo("USD"));
        assertThat(sql.queryLong("SELECT count(*) FROM credit_ledger WHERE organization_id = ?",
                account.organizationId())).isEqualTo(2);
        // the ledger is append-only, even for the service's own database user
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sql.update(
                "UPDATE credit_ledger SET credits_delta = 1000000 WHERE organization_id = ?", account.organizationId()))
                .hasMessageContaining("append-only");

        // an event for a customer this installation does not know changes nothing
        String stranger = creditsPaid("evt_3", "cs_other", "cus_unknown", 9999, now);
        deliver(stranger, signed(stranger, WEBHOOK_SECRET, now)).statusCode(200)
                .body("outcome", equalTo("unknown customer"));
    }

    @Test
    void subscriptionEventsApplyNewestFirstAndALiveSubscriptionCannotBeBoughtTwice() {
        as(key).body(Map.of()).post("/api/v1/organizations/billing/subscription/checkout").then().statusCode(200);
        String customer = customer();
        long now = Instant.now().getEpochSecond();
        String started = "{\"id\":\"evt_s1\",\"type\":\"checkout.session.completed\",\"created\":" + (now - 100)
                + ",\"data\":{\"object\":{\"id\":\"cs_sub\",\"mode\":\"subscription\",\"customer\":\"" + customer
                + "\",\"subscription\":\"sub_1\",\"payment_status\":\"paid\",\"metadata\":{\"plan\":\"pro\"}}}}";
        deliver(started, signed(started, WEBHOOK_SECRET, now)).statusCode(200);
        String pastDue = subscription("evt_s2", customer, "past_due", now - 50, false);
        String older = subscription("evt_s0", customer, "incomplete", now - 200, false);
        deliver(pastDue, signed(pastDue, WEBHOOK_SECRET, now)).statusCode(200);
        deliver(older, signed(older, WEBHOOK_SECRET, now)).statusCode(200).body("outcome", equalTo("stale event"));
        as(key).get("/api/v1/organizations/billing/subscription").then().statusCode(200)
                .body("status", equalTo("past_due")).body("plan", equalTo("pro"))
                .body("current_period_end", equalTo("2030-01-01T00:00:00Z"));
        as(key).body(Map.of()).post("/api/v1/organizations/billing/subscription/checkout").then().statusCode(409);
        String cancelled = subscription("evt_s3", customer, "canceled", now - 10, true);
        deliver(cancelled, signed(cancelled, WEBHOOK_SECRET, now)).statusCode(200);
        as(key).get("/api/v1/organizations/billing/subscription").then().body("status", equalTo("canceled"))
                .body("cancel_at_period_end", equalTo(true));
    }

    private static String subscription(String event, String customer, String status, long created, boolean cancel) {
        return "{\"id\":\"" + event + "\",\"type\":\"customer.subscription.updated\",\"created\":" + created
                + ",\"data\":{\"object\":{\"id\":\"sub_1\",\"object\":\"subscription\",\"customer\":\"" + customer
                + "\",\"status\":\"" + status + "\",\"cancel_at_period_end\":" + cancel + ",\"items\":{\"data\":"
                + "[{\"current_period_end\":1893456000}]},\"metadata\":{\"plan\":\"pro\"}}}}";
    }

    @Test
    void aZeroBalanceRefusesNewCallsAndChatsUntilCreditsArrive() throws Exception {
        TextChatEndToEndTest.useSimulator(key);
        long workflow = TextChatEndToEndTest.createWorkflow(key, TextChatEndToEndTest.bookingAgent(), null);
        as(key).body(Map.of()).post("/api/v1/workflow/" + workflow + "/text-chat/sessions").then().statusCode(402)
                .body("detail", equalTo("Insufficient credits: the organization's credit balance is exhausted"));
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "+14155550100"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(402);
        as(key).body(Map.of("workflow_id", 999_999_999, "phone_number", "+14155550100"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(404); // not found comes first
        // a call in is refused too (the carrier told to reject it: nothing billed, nothing spoken)
        long laptop = as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator")))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200).extract().jsonPath()
                .getLong("id");
        String address = "+1555" + (1_000_000 + (long) (Math.random() * 8_999_999));
        as(key).body(Map.of("address", address, "inbound_workflow_id", workflow))
                .post("/api/v1/organizations/telephony-configs/" + laptop + "/phone-numbers").then().statusCode(200);
        as(key).body(Map.of("to", address, "from", "+15550100999")).post("/api/v1/telephony/simulator/inbound-call")
                .then().statusCode(200).body("action", equalTo("reject")).body("reason", equalTo("no_credits"));
        // a browser's call as well: 402 before the plain route's upgrade; on the dashboard's signaling, said as the
        // reference says it (its credits dialog)
        long browserRun = as(key).body(Map.of("mode", "smallwebrtc", "name", "Test audio"))
                .post("/api/v1/workflow/" + workflow + "/runs").then().statusCode(200).extract().jsonPath()
                .getLong("id");
        BrowserCaller plain = new BrowserCaller(vertx);
        assertThatThrownBy(() -> plain.connect("ws://localhost:" + port + "/api/v1/ws/voice/" + workflow + "/"
                + browserRun + "?token=" + key, null)).cause().isInstanceOf(WebSocketHandshakeException.class)
                .satisfies(e -> assertThat(((WebSocketHandshakeException) e).getResponse().statusCode())
                        .isEqualTo(402));
        plain.close();
        try (BrowserCaller signaling = new BrowserCaller(vertx).connect("ws://localhost:" + port
                + "/api/v1/ws/signaling/" + workflow + "/" + browserRun + "?token=" + key, null)) {
            assertThat(signaling.closed.get(10, TimeUnit.SECONDS)).isEqualTo("insufficient_credits");
            assertThat(signaling.events("error").getFirst().getJsonObject("payload").getString("message"))
                    .isEqualTo(CreditGate.EXHAUSTED);
        }

        as(key).body(Map.of("credits", 100)).post("/api/v1/organizations/usage/mps-credits/purchase-url").then()
                .statusCode(200);
        long now = Instant.now().getEpochSecond();
        String paid = creditsPaid("evt_z1", "cs_zero_1", customer(), 100, now);
        deliver(paid, signed(paid, WEBHOOK_SECRET, now)).statusCode(200);
        long run = as(key).body(Map.of()).post("/api/v1/workflow/" + workflow + "/text-chat/sessions").then()
                .statusCode(200).extract().jsonPath().getLong("workflow_run_id");
        assertThat(run).isPositive();
    }

    @Test
    void aCampaignPausesWithTheReasonInItsLogWhenTheCreditsRunOut() throws Exception {
        // each simulated call lasts 3 ring delays (1.2 s of wall time) and reports 1 second: the metering tick
        // (1 s in tests) debits the first calls while later ones still wait, however fast the machine dials
        as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator", "ring_delay_ms", 400,
                "default_outcome", "completed", "default_duration_seconds", 1)))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
        long workflow = as(key).body(Map.of("name", "Caller", "workflow_definition",
                        WorkflowEndToEndTest.definition("Remind"))).post("/api/v1/workflow/create/definition").then()
                .statusCode(200).extract().jsonPath().getLong("id");
        as(key).body(Map.of("credits", 100)).post("/api/v1/organizations/usage/mps-credits/purchase-url").then()
                .statusCode(200);
        long now = Instant.now().getEpochSecond();
        String paid = creditsPaid("evt_c1", "cs_campaign_1", customer(), 2, now); // two one-second calls at 1 cent
        deliver(paid, signed(paid, WEBHOOK_SECRET, now)).statusCode(200);

        StringBuilder csv = new StringBuilder("phone_number,first_name\n");
        for (int i = 0; i < 12; i++) {
            csv.append("+1555020%04d,Ann\n".formatted(i));
        }
        byte[] bytes = csv.toString().getBytes(StandardCharsets.UTF_8);
        var upload = as(key).body(Map.of("file_name", "contacts.csv", "file_size", bytes.length))
                .post("/api/v1/object-store/presigned-upload-url").then().statusCode(200).extract().jsonPath();
        given().contentType("text/csv").body(bytes).put(upload.getString("upload_url")).then().statusCode(200);
        long campaign = as(key).body(Map.of("name", "Reminders", "workflow_id", workflow, "source_type", "csv",
                        "source_id", upload.getString("file_key"), "max_concurrency", 1))
                .post("/api/v1/campaign/create").then().statusCode(200).extract().jsonPath().getLong("id");
        as(key).post("/api/v1/campaign/" + campaign + "/start").then().statusCode(200);

        Instant deadline = Instant.now().plusSeconds(40);
        io.restassured.path.json.JsonPath state = null;
        do {
            io.restassured.path.json.JsonPath seen = state;
            assertThat(Instant.now()).as(() -> "the campaign pauses; last seen: "
                    + (seen == null ? "nothing yet" : seen.prettify()) + ", balance "
                    + sql.queryLong("SELECT balance FROM credit_accounts WHERE organization_id = ?",
                            account.organizationId())).isBefore(deadline);
            Thread.sleep(200);
            state = as(key).get("/api/v1/campaign/" + campaign).then().statusCode(200).extract().jsonPath();
        } while (!"paused".equals(state.getString("state")));
        assertThat(state.getList("logs.message", String.class))
                .anySatisfy(m -> assertThat(m).contains("credit balance is exhausted"));
        assertThat(state.getInt("processed_rows")).isBetween(2, 11); // metering trails a call by a tick at most
        assertThat(state.getInt("failed_rows")).isZero(); // paused, not failed: the contacts wait for a resume
        assertThat(sql.queryLong("SELECT balance FROM credit_accounts WHERE organization_id = ?",
                account.organizationId())).isLessThanOrEqualTo(0);
    }
}
