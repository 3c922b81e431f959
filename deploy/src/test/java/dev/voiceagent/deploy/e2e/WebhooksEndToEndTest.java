package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import dev.voiceagent.deploy.support.WebhookReceiver;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Signed webhooks end to end against a receiver that checks the Standard Webhooks signature of every delivery. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class WebhooksEndToEndTest {

    private static final String ENDPOINTS = "/api/v1/webhook-endpoints";

    @Inject
    AgroalDataSource dataSource;

    private Sql sql;
    private String key;
    private String otherKey;
    private WebhookReceiver receiver;

    private RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void organization() {
        sql = new Sql(dataSource);
        key = Api.createKey(Api.signUp("hooks"), "k");
        otherKey = Api.createKey(Api.signUp("hooks-other"), "k");
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    private static void await(String what, Duration timeout, BooleanSupplier done) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (!done.getAsBoolean()) {
            assertThat(Instant.now()).as(what).isBefore(deadline);
            Thread.sleep(100);
        }
    }

    private JsonPath endpoint(List<String> types) {
        return as(key).body(Map.of("url", receiver.url(), "description", "CRM", "event_types", types)).post(ENDPOINTS)
                .then().statusCode(200).body("secret", startsWith("whsec_")).extract().jsonPath();
    }

    private long campaign(String contacts) {
        as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator", "ring_delay_ms", 30,
                "default_outcome", "completed", "default_duration_seconds", 1)))
                .post("/api/v1/organizations/telephony-configs").then()
                .statusCode(org.hamcrest.Matchers.anyOf(equalTo(200), equalTo(409))); // made by an earlier call
        long workflow = as(key).body(Map.of("name", "Caller", "workflow_definition",
                        WorkflowEndToEndTest.definition("Remind"))).post("/api/v1/workflow/create/definition").then()
                .statusCode(200).extract().jsonPath().getLong("id");
        byte[] bytes = contacts.getBytes(StandardCharsets.UTF_8);
        JsonPath upload = as(key).body(Map.of("file_name", "c.csv", "file_size", bytes.length))
                .post("/api/v1/object-store/presigned-upload-url").then().statusCode(200).extract().jsonPath();
        given().contentType("text/csv").body(bytes).put(upload.getString("upload_url")).then().statusCode(200);
        return as(key).body(Map.of("name", "Reminders", "workflow_id", workflow, "source_type", "csv", "source_id",
                        upload.getString("file_key"))).post("/api/v1/campaign/create").then().statusCode(200)
                .extract().jsonPath().getLong("id");
    }

    @Test
    void endpointsAreTheOrganizationsOwnAndTheSecretIsShownOnce() {
        JsonPath created = endpoint(List.of("campaign.started"));
        long id = created.getLong("id");
        as(key).get(ENDPOINTS + "/" + id).then().statusCode(200).body("secret", nullValue())
                .body("event_types[0]", equalTo("campaign.started")).body("enabled", equalTo(true));
        assertThat(sql.queryString("SELECT secret FROM webhook_endpoints WHERE id = ?", id))
                .doesNotContain(created.getString("secret").substring(6)); // sealed at rest
        as(otherKey).get(ENDPOINTS + "/" + id).then().statusCode(404);
        as(otherKey).body(Map.of("enabled", false)).patch(ENDPOINTS + "/" + id).then().statusCode(404);
        as(otherKey).post(ENDPOINTS + "/" + id + "/rotate-secret").then().statusCode(404);
        as(otherKey).delete(ENDPOINTS + "/" + id).then().statusCode(404);
        as(otherKey).get(ENDPOINTS).then().statusCode(200).body("$", org.hamcrest.Matchers.hasSize(0));
        as(key).body(Map.of("url", receiver.url(), "event_types", List.of("campaign.exploded"))).post(ENDPOINTS).then()
                .statusCode(400).body("detail", containsString("Unknown event type"));
        as(key).body(Map.of("url", "ftp://example.com/x")).post(ENDPOINTS).then().statusCode(400);
        as(key).body(Map.of("enabled", false, "event_types", List.of())).patch(ENDPOINTS + "/" + id).then()
                .statusCode(200).body("enabled", equalTo(false)).body("description", equalTo("CRM"));
        as(key).delete(ENDPOINTS + "/" + id).then().statusCode(200);
        as(key).get(ENDPOINTS + "/" + id).then().statusCode(404);
    }

    @Test
    void campaignAndContactEventsArriveSignedAndARotationSignsWithBothSecrets() throws Exception {
        JsonPath created = endpoint(List.of());
        String secret = created.getString("secret");
        long id = created.getLong("id");
        as(key).body(Map.of("phone_number", "+14155550199")).post("/api/v1/organizations/dnc").then().statusCode(200);
        long campaign = campaign("phone_number,first_name\n+14155550198,Ann\n+14155550199,Bo\n");
        as(key).post("/api/v1/campaign/" + campaign + "/start").then().statusCode(200);
        // deliveries go out side by side: the campaign's end may arrive before its last contact's
        await("the campaign's events", Duration.ofSeconds(30), () -> !receiver.ofType("campaign.completed").isEmpty()
                && !receiver.ofType("contact.completed").isEmpty() && !receiver.ofType("contact.skipped").isEmpty());
        assertThat(receiver.ofType("campaign.started")).hasSize(1);
        assertThat(receiver.ofType("contact.skipped")).singleElement()
                .satisfies(r -> assertThat(r.body()).contains("+14155550199").contains("do_not_call"));
        assertThat(receiver.ofType("contact.completed")).singleElement()
                .satisfies(r -> assertThat(r.body()).contains("\"campaign_id\": " + campaign));
        await("the run's completion", Duration.ofSeconds(10), () -> !receiver.ofType("run.completed").isEmpty());
        assertThat(receiver.ofType("run.completed")).singleElement()
                .satisfies(r -> assertThat(r.body()).contains("\"campaign_id\": " + campaign).contains("\"mode\": \"simulator\"")
                        .doesNotContain("+14155550199"));
        assertThat(receiver.ofType("call.status")).extracting(WebhookReceiver.Received::body)
                .anySatisfy(body -> assertThat(body).contains("\"status\": \"completed\""));
        assertThat(receiver.received).allSatisfy(r -> {
            assertThat(r.id()).startsWith("msg_");
            assertThat(r.signedWith(secret)).as("signed: " + r.body()).isTrue();
            assertThat(Math.abs(Instant.now().getEpochSecond() - Long.parseLong(r.timestamp()))).isLessThan(60);
        });
        assertThat(receiver.received.stream().map(WebhookReceiver.Received::id).distinct().count())
                .isEqualTo(receiver.received.size());

        String rotated = as(key).post(ENDPOINTS + "/" + id + "/rotate-secret").then().statusCode(200)
                .body("previous_secret_expires_at", org.hamcrest.Matchers.notNullValue()).extract().jsonPath()
                .getString("secret");
        assertThat(rotated).isNotEqualTo(secret);
        int before = receiver.received.size();
        long second = campaign("phone_number,first_name\n+14155550197,Cy\n");
        as(key).post("/api/v1/campaign/" + second + "/start").then().statusCode(200);
        await("a delivery after the rotation", Duration.ofSeconds(20), () -> receiver.received.size() > before);
        WebhookReceiver.Received during = receiver.received.get(before);
        assertThat(during.signedWith(rotated)).isTrue();
        assertThat(during.signedWith(secret)).isTrue(); // the old secret still signs for 24 hours
        assertThat(during.signature().split(" ")).hasSize(2);
    }

    @Test
    void aFailingReceiverIsRetriedOnTheScheduleAndEveryAttemptIsRecorded() throws Exception {
        long id = endpoint(List.of("campaign.started")).getLong("id");
        receiver.answers.add(new WebhookReceiver.Answer(503, null));
        long campaign = campaign("phone_number,first_name\n+14155550196,Ann\n");
        as(key).post("/api/v1/campaign/" + campaign + "/start").then().statusCode(200);
        await("the retry after about 5 s", Duration.ofSeconds(20), () -> receiver.received.size() >= 2);
        assertThat(receiver.received.get(1).id()).isEqualTo(receiver.received.get(0).id()); // the same message
        await("the delivery settles", Duration.ofSeconds(5), () -> "delivered".equals(
                as(key).get(ENDPOINTS + "/" + id + "/deliveries").then().extract().jsonPath().getString("[0].state")));
        JsonPath deliveries = as(key).get(ENDPOINTS + "/" + id + "/deliveries").then().statusCode(200).extract()
                .jsonPath();
        assertThat(deliveries.getInt("[0].attempts")).isEqualTo(2);
        assertThat(deliveries.getList("[0].attempt_log.status", Integer.class)).containsExactly(503, 200);
        assertThat(deliveries.getString("[0].attempt_log[0].response_excerpt")).contains("503");
        Instant first = Instant.parse(deliveries.getString("[0].attempt_log[0].attempted_at"));
        Instant retried = Instant.parse(deliveries.getString("[0].attempt_log[1].attempted_at"));
        assertThat(Duration.between(first, retried)).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(9));

        // redelivered on request: the same message again
        long delivery = deliveries.getLong("[0].id");
        as(otherKey).post(ENDPOINTS + "/" + id + "/deliveries/" + delivery + "/redeliver").then().statusCode(404);
        as(key).post(ENDPOINTS + "/" + id + "/deliveries/" + delivery + "/redeliver").then().statusCode(200);
        await("the redelivery", Duration.ofSeconds(10), () -> receiver.received.size() >= 3);
        assertThat(receiver.received.get(2).id()).isEqualTo(receiver.received.get(0).id());
    }

    @Test
    void aRefusalIsFinalAndTheEndOfTheScheduleIsADeadLetter() throws Exception {
        long id = endpoint(List.of("campaign.started", "campaign.paused")).getLong("id");
        receiver.answers.add(new WebhookReceiver.Answer(400, null));
        long campaign = campaign("phone_number,first_name\n+14155550195,Ann\n+14155550194,Bo\n");
        as(key).body(Map.of("start", "03:00", "end", "03:01")).put("/api/v1/organizations/calling-hours"); // no dialing
        as(key).post("/api/v1/campaign/" + campaign + "/start").then().statusCode(200);
        await("the refused delivery", Duration.ofSeconds(10), () -> sql.queryLong("SELECT count(*) FROM"
                + " webhook_deliveries WHERE endpoint_id = ? AND state = 'dead'", id) == 1);
        assertThat(receiver.received).hasSize(1); // a 400 is not retried

        // the schedule spent (as if 8 attempts had failed over a day): the ninth failure is final
        for (int i = 0; i < 3; i++) {
            receiver.answers.add(new WebhookReceiver.Answer(500, null));
        }
        as(key).post("/api/v1/campaign/" + campaign + "/pause").then().statusCode(200);
        await("the pause's delivery, between two attempts, counted as its eighth", Duration.ofSeconds(10),
                () -> sql.update("UPDATE webhook_deliveries SET attempts = 8 WHERE endpoint_id = ?"
                        + " AND event_type = 'campaign.paused' AND state = 'pending' AND lease_owner IS NULL", id) == 1);
        await("the dead letter", Duration.ofSeconds(15), () -> sql.queryLong("SELECT count(*) FROM webhook_deliveries"
                + " WHERE endpoint_id = ? AND state = 'dead'", id) == 2);
        JsonPath deliveries = as(key).get(ENDPOINTS + "/" + id + "/deliveries").then().extract().jsonPath();
        assertThat(deliveries.getString("[0].event_type")).isEqualTo("campaign.paused");
        assertThat(deliveries.getInt("[0].attempts")).isGreaterThanOrEqualTo(9);
        assertThat(deliveries.getString("[0].next_attempt_at")).isNull();
    }

    @Test
    void aDeliveryLeftByAReplicaThatDiedIsTakenOverOnceItsLeaseExpires() throws Exception {
        long id = endpoint(List.of("campaign.started")).getLong("id");
        long organization = sql.queryLong("SELECT organization_id FROM webhook_endpoints WHERE id = ?", id);
        // two deliveries a dead replica had claimed: one lease expired, one still running
        for (String lease : List.of("now() - interval '1 minute'", "now() + interval '10 minutes'")) {
            sql.update("INSERT INTO webhook_deliveries (organization_id, endpoint_id, message_id, event_type, payload,"
                    + " attempts, lease_owner, lease_until) VALUES (?, ?, 'msg_' || md5(random()::text),"
                    + " 'campaign.started', '{\"type\": \"campaign.started\", \"data\": {}}', 1, 'replica-that-died', "
                    + lease + ")", organization, id);
        }
        await("the expired lease's delivery", Duration.ofSeconds(10), () -> receiver.received.size() == 1);
        Thread.sleep(1_500);
        assertThat(receiver.received).hasSize(1); // the live lease is left alone
        assertThat(sql.queryString("SELECT string_agg(state || ':' || attempts, ',' ORDER BY id) FROM"
                + " webhook_deliveries WHERE endpoint_id = ?", id)).isEqualTo("delivered:2,pending:1");
        assertThat(sql.queryString("SELECT string_agg(attempt::text, ',') FROM webhook_attempts a JOIN"
                + " webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = ?", id)).isEqualTo("2");
    }

    /**
     * run.completed names the run's recording and transcript as the reference's webhooks do (recording_url,
     * transcript_url): the public links the run's API gives, signed at delivery, and following each downloads it; a
     * run that left neither has them null. The simulated callee talks, so the call is recorded and transcribed; the
     * carrier's final report and the call's session race to complete the run, and the event goes out after the
     * session has stored what it links to, whichever won.
     */
    @Test
    void runCompletedNamesTheRunsRecordingAndTranscriptByLinksThatDownloadThem() throws Exception {
        String secret = endpoint(List.of("run.completed")).getString("secret");
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "simulator"), "stt", Map.of("provider", "simulator"),
                "tts", Map.of("provider", "simulator")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        Map<String, Object> start = new LinkedHashMap<>();
        start.put("name", "Start");
        start.put("prompt", "Acme Dental looks after your teeth. Ask how to help.");
        start.put("greeting", "Hello, this is Acme Dental. How can I help?");
        start.put("greeting_type", "text");
        Map<String, Object> definition = Map.of(
                "nodes", List.of(
                        Map.of("id", "start", "type", "startCall", "position", Map.of("x", 0, "y", 0), "data", start),
                        Map.of("id", "end", "type", "endCall", "position", Map.of("x", 0, "y", 200), "data",
                                Map.of("name", "Booked", "prompt", "Your cleaning is booked for Tuesday. Goodbye."))),
                "edges", List.of(Map.of("id", "e1", "source", "start", "target", "end", "data",
                        Map.of("label", "Book", "condition", "book a cleaning on Tuesday"))));
        long workflow = as(key).body(Map.of("name", "Dental", "workflow_definition", definition))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator", "ring_delay_ms", 30,
                "rules", List.of(Map.of("suffix", "", "outcome", "completed", "lines",
                                List.of("Please book a cleaning on Tuesday.")),
                        Map.of("suffix", "999", "outcome", "busy")))))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);

        long talked = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+14155550123"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        long busy = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+14155550999"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        await("both runs' completions", Duration.ofSeconds(60), () -> receiver.ofType("run.completed").size() >= 2);
        assertThat(receiver.ofType("run.completed")).hasSize(2).allSatisfy(r -> assertThat(r.signedWith(secret))
                .as("signed: " + r.body()).isTrue());
        JsonPath withArtifacts = completion(talked);
        String base = "http://localhost:8081/api/v1/public/download/workflow/";
        assertThat(withArtifacts.getString("data.recording_url")).startsWith(base).endsWith("/recording");
        assertThat(withArtifacts.getString("data.transcript_url")).startsWith(base).endsWith("/transcript");
        String transcript = new String(Api.download(withArtifacts.getString("data.transcript_url")),
                StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme Dental. How can I help?\n"
                + "user: Please book a cleaning on Tuesday.\n");
        byte[] recording = Api.download(withArtifacts.getString("data.recording_url"));
        assertThat(new String(recording, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("RIFF");
        assertThat(recording.length).as("seconds of a call, not an empty file").isGreaterThan(44 + 32_000);

        JsonPath without = completion(busy);
        assertThat(without.getMap("data")).containsEntry("recording_url", null).containsEntry("transcript_url", null)
                .containsEntry("disposition", "busy");
    }

    private JsonPath completion(long runId) {
        return receiver.ofType("run.completed").stream().map(r -> JsonPath.from(r.body()))
                .filter(body -> body.getLong("data.workflow_run_id") == runId).findFirst().orElseThrow(
                        () -> new AssertionError("no run.completed for run " + runId));
    }

    /** The workflow's webhook node: sent through the outbox when the run ends, with its credential and template. */
    @Test
    @SuppressWarnings("unchecked")
    void aWorkflowsWebhookNodeIsSentWhenItsRunEndsWithItsCredentialAndTemplate() throws Exception {
        String credential = as(key).body(Map.of("name", "CRM token", "credential_type", "bearer_token",
                "credential_data", Map.of("token", "crm-secret-token"))).post("/api/v1/credentials/").then()
                .statusCode(200).extract().path("uuid");
        Map<String, Object> definition = WorkflowEndToEndTest.definition("Remind");
        ((List<Object>) definition.get("nodes")).add(WorkflowEndToEndTest.node("hook", "webhook", Map.of("name",
                "CRM", "endpoint_url", receiver.url(), "http_method", "POST", "credential_uuid", credential,
                "custom_headers", List.of(Map.of("key", "X-Source", "value", "voice-{{mode}}")),
                "payload_template", Map.of("run", "{{workflow_run_id}}", "outcome", "{{disposition}}",
                        "who", "{{initial_context.phone_number}}"))));
        as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator", "ring_delay_ms", 30,
                "default_outcome", "completed", "default_duration_seconds", 1)))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
        long workflow = as(key).body(Map.of("name", "With webhook", "workflow_definition", definition))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        long run = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+14155550188"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        await("the node's request", Duration.ofSeconds(20), () -> !receiver.received.isEmpty());
        WebhookReceiver.Received sent = receiver.received.getFirst();
        assertThat(sent.body()).contains("\"run\":" + run).contains("\"who\":\"+14155550188\"");
        assertThat(sent.id()).isNull(); // the node's own request: not a signed event
        assertThat(receiver.headers.getFirst()).containsEntry("authorization", "Bearer crm-secret-token")
                .containsEntry("x-source", "voice-simulator");
        // the delivery is settled after the receiver's answer came back: a moment after the request arrived
        await("the node's delivery settled", Duration.ofSeconds(10), () -> "delivered".equals(sql.queryString(
                "SELECT state FROM webhook_deliveries WHERE workflow_run_id = ? AND node_id = 'hook'", run)));
    }
}
