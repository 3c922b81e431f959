package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.voiceagent.application.call.CallChanges;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.campaign.DispatchCampaignsService;
import dev.voiceagent.application.campaign.DispatchLedger;
import dev.voiceagent.application.campaign.DispatchSettings;
import dev.voiceagent.application.dispatch.DispatchMetrics;
import dev.voiceagent.application.telephony.NumberTimeZones;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import dev.voiceagent.domain.calling.CallingHours;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The do-not-call list end to end: its operations, and a listed number never dialed by any path. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class DoNotCallEndToEndTest {

    private static final String DNC = "/api/v1/organizations/dnc";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    DispatchLedger ledger;
    @Inject
    WorkflowRepository workflowRepository;
    @Inject
    TelephonyConfigurationRepository configurations;
    @Inject
    PhoneNumberRepository phoneNumbers;
    @Inject
    CallRepository calls;
    @Inject
    CallChanges changes;
    @Inject
    @Any
    Instance<CallGateway> gateways;
    @Inject
    DispatchMetrics metrics;
    @Inject
    CreditGate credits;
    @Inject
    NumberTimeZones numberZones;

    private Sql sql;
    private Api.Account account;
    private String key;
    private String otherKey;

    private RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void organizations() {
        sql = new Sql(dataSource);
        account = Api.signUp("dnc");
        key = Api.createKey(account, "k");
        otherKey = Api.createKey(Api.signUp("dnc-other"), "k");
    }

    private String upload(String csv) {
        byte[] bytes = csv.getBytes(StandardCharsets.UTF_8);
        JsonPath presigned = as(key).body(Map.of("file_name", "numbers.csv", "file_size", bytes.length))
                .post("/api/v1/object-store/presigned-upload-url").then().statusCode(200).extract().jsonPath();
        given().contentType("text/csv").body(bytes).put(presigned.getString("upload_url")).then().statusCode(200);
        return presigned.getString("file_key");
    }

    private long workflow() {
        return as(key).body(Map.of("name", "Caller", "workflow_definition", WorkflowEndToEndTest.definition("Remind")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    private void simulator() {
        as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator", "ring_delay_ms", 30,
                "default_outcome", "completed", "default_duration_seconds", 1)))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
    }

    @Test
    void numbersAreKeptInE164AndEachOrganizationSeesOnlyItsOwn() {
        as(key).body(Map.of("phone_number", "020 7946 0123", "country_code", "GB", "reason", "asked on the phone"))
                .post(DNC).then().statusCode(200).body("phone_number", equalTo("+442079460123"))
                .body("source", equalTo("manual")).body("reason", equalTo("asked on the phone"));
        as(key).body(Map.of("phone_number", "+44 20 7946 0123")).post(DNC).then().statusCode(200)
                .body("reason", equalTo("asked on the phone")); // already listed: the entry as it is
        as(key).body(Map.of("phone_number", "+1 415 555 2671")).post(DNC).then().statusCode(200);
        as(key).get(DNC + "?search=7946").then().statusCode(200).body("total_count", equalTo(1))
                .body("numbers.phone_number", contains("+442079460123"));
        as(key).get(DNC + "?limit=1").then().body("total_count", equalTo(2)).body("total_pages", equalTo(2))
                .body("numbers.phone_number", contains("+14155552671")); // newest first
        as(otherKey).get(DNC).then().statusCode(200).body("total_count", equalTo(0)).body("numbers", hasSize(0));
        as(otherKey).delete(DNC + "/+442079460123").then().statusCode(404);

        as(key).body(Map.of("phone_number", "12")).post(DNC).then().statusCode(400);
        as(key).body(Map.of("phone_number", "sip:bob@example.com")).post(DNC).then().statusCode(400)
                .body("detail", containsString("Not a public telephone number"));
        as(key).body(Map.of()).post(DNC).then().statusCode(422);

        as(key).delete(DNC + "/02079460123?country_code=GB").then().statusCode(200).body("removed", equalTo(true));
        as(key).delete(DNC + "/+442079460123").then().statusCode(404);
        as(key).get(DNC).then().body("total_count", equalTo(1));
    }

    @Test
    void aCsvImportListsTheValidNumbersOnceAndReportsTheRest() {
        as(key).body(Map.of("phone_number", "+14155552671")).post(DNC).then().statusCode(200);
        String file = upload("name,phone_number\nAnn,+1 415 555 2671\nBob,+442079460001\nBob again,+44 20 7946 0001\n"
                + "Eve,not a number\nDan,+442079460002\n");
        as(key).body(Map.of("file_key", file, "reason", "imported from the CRM")).post(DNC + "/import").then()
                .statusCode(200).body("rows", equalTo(5)).body("added", equalTo(2)).body("already_listed", equalTo(2))
                .body("invalid", equalTo(1)).body("problems[0].row", equalTo(5))
                .body("problems[0].value", equalTo("not a number"));
        as(key).get(DNC + "?search=crm").then().body("total_count", equalTo(2))
                .body("numbers.source", contains("import", "import"));
        as(otherKey).body(Map.of("file_key", file)).post(DNC + "/import").then().statusCode(404);
    }

    @Test
    void aListedNumberIsNeverDialedBySingleCallsOrCampaigns() throws Exception {
        simulator();
        long workflow = workflow();
        as(key).body(Map.of("phone_number", "+14155550142")).post(DNC).then().statusCode(200);
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "+1 (415) 555-0142"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(400)
                .body("detail", equalTo("+14155550142 is on the organization's do-not-call list"));
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "+14155550143"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200);

        String file = upload("phone_number,first_name\n+14155550151,Ann\n+14155550152,Bob\n+14155550153,Cy\n"
                + "+14155550154,Di\n");
        long campaign = as(key).body(Map.of("name", "Reminders", "workflow_id", workflow, "source_type", "csv",
                "source_id", file, "max_concurrency", 2)).post("/api/v1/campaign/create").then().statusCode(200)
                .extract().jsonPath().getLong("id");
        // listed after the campaign was made, before it dials: the claim sees it
        as(key).body(Map.of("phone_number", "+14155550152")).post(DNC).then().statusCode(200);
        as(key).body(Map.of("phone_number", "+14155550154")).post(DNC).then().statusCode(200);
        as(key).post("/api/v1/campaign/" + campaign + "/start").then().statusCode(200);
        Instant deadline = Instant.now().plusSeconds(30);
        JsonPath state;
        do {
            assertThat(Instant.now()).as("the campaign completes").isBefore(deadline);
            Thread.sleep(200);
            state = as(key).get("/api/v1/campaign/" + campaign).then().statusCode(200).extract().jsonPath();
        } while (!"completed".equals(state.getString("state")));
        assertThat(state.getInt("processed_rows")).isEqualTo(4);
        assertThat(state.getInt("failed_rows")).isZero();
        assertThat(state.getList("logs.findAll { it.event == 'contact_skipped' }.details.phone_number", String.class))
                .containsExactlyInAnyOrder("+14155550152", "+14155550154");
        assertThat(sql.queryLong("SELECT count(*) FROM calls c JOIN workflow_runs r ON r.id = c.workflow_run_id"
                + " WHERE r.campaign_id = ?", campaign)).isEqualTo(2);
        assertThat(sql.queryLong("SELECT count(*) FROM calls c JOIN workflow_runs r ON r.id = c.workflow_run_id"
                + " WHERE r.campaign_id = ? AND c.to_number IN ('+14155550152', '+14155550154')", campaign)).isZero();
        assertThat(sql.queryLong("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ?"
                + " AND last_outcome = 'skipped_do_not_call'", campaign)).isEqualTo(2);
    }

    @Test
    void aDispositionTheOrganizationMapsToDoNotCallListsTheCustomersNumber() {
        as(key).get(DNC + "/dispositions").then().statusCode(200).body("disposition_codes", hasSize(0));
        as(key).body(Map.of("disposition_codes", List.of("DNC", "HOSTILE"))).put(DNC + "/dispositions")
                .then().statusCode(200).body("disposition_codes", contains("DNC", "HOSTILE"));
        as(otherKey).get(DNC + "/dispositions").then().body("disposition_codes", hasSize(0));
        long workflow = workflow();
        long definition = sql.queryLong("SELECT id FROM workflow_definitions WHERE workflow_id = ? AND status ="
                + " 'published'", workflow);
        long outbound = finishedCall(workflow, definition, "outbound", "+13125550101", "+14155550161", "DNC");
        long inbound = finishedCall(workflow, definition, "inbound", "+14155550162", "+13125550101", "HOSTILE");
        finishedCall(workflow, definition, "outbound", "+13125550101", "+14155550163", "XFER");
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (sql.queryLong("SELECT count(*) FROM workflow_runs WHERE workflow_id = ? AND NOT metered", workflow) > 0) {
            assertThat(Instant.now()).isBefore(deadline);
            sleep();
        }
        as(key).get(DNC).then().statusCode(200).body("total_count", equalTo(2));
        assertThat(sql.queryLong("SELECT workflow_run_id FROM dnc_numbers WHERE organization_id = ?"
                + " AND phone_number = '+14155550161' AND source = 'disposition'", account.organizationId()))
                .isEqualTo(outbound);
        assertThat(sql.queryLong("SELECT workflow_run_id FROM dnc_numbers WHERE organization_id = ?"
                + " AND phone_number = '+14155550162'", account.organizationId())).isEqualTo(inbound);
        as(key).body(Map.of("disposition_codes", List.of(""))).put(DNC + "/dispositions").then()
                .statusCode(400);
    }

    private long finishedCall(long workflow, long definition, String direction, String from, String to,
            String disposition) {
        long run = sql.insertReturningId("INSERT INTO workflow_runs (organization_id, workflow_id, definition_id,"
                        + " name, mode, call_type, state, gathered_context) VALUES (?, ?, ?, 'call', 'twilio', ?,"
                        + " 'running', ?::jsonb)", account.organizationId(), workflow, definition, direction,
                "{\"mapped_call_disposition\": \"" + disposition + "\"}");
        sql.update("INSERT INTO calls (organization_id, workflow_run_id, provider, status, from_number, to_number,"
                + " started_at, duration_seconds) VALUES (?, ?, 'twilio', 'completed', ?, ?, now(), 30)",
                account.organizationId(), run, from, to);
        sql.update("UPDATE workflow_runs SET state = 'completed', is_completed = true WHERE id = ?", run);
        return run;
    }

    private static void sleep() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A second replica is a second dispatcher over the same database: with both claiming at once, a listed number is
     * never dialed, every other contact exactly once, and each skip is logged once.
     */
    @Test
    void twoReplicasClaimingAtOnceNeverDialAListedNumber() throws Exception {
        simulator();
        long workflow = workflow();
        StringBuilder csv = new StringBuilder("phone_number,first_name\n");
        for (int i = 0; i < 30; i++) {
            csv.append("+141555502%02d,Ann\n".formatted(50 + i));
        }
        long campaign = as(key).body(Map.of("name", "Two replicas", "workflow_id", workflow, "source_type", "csv",
                "source_id", upload(csv.toString()), "max_concurrency", 10)).post("/api/v1/campaign/create").then()
                .statusCode(200).extract().jsonPath().getLong("id");
        for (int i = 0; i < 30; i += 3) {
            as(key).body(Map.of("phone_number", "+141555502%02d".formatted(50 + i))).post(DNC).then().statusCode(200);
        }
        var replicaB = new DispatchCampaignsService(ledger, workflowRepository,
                configurations, phoneNumbers, calls, changes, gateways.stream().toList(), Clock.systemUTC(),
                new Random(), new DispatchSettings(10, Duration.ofHours(2),
                        Duration.ofMinutes(2), CallingHours.parse("00:00", "24:00")),
                metrics, credits, numberZones);
        as(key).post("/api/v1/campaign/" + campaign + "/start").then().statusCode(200);
        Instant deadline = Instant.now().plusSeconds(40);
        while (!"completed".equals(as(key).get("/api/v1/campaign/" + campaign).then().extract().path("state"))) {
            assertThat(Instant.now()).as("the campaign completes").isBefore(deadline);
            replicaB.tick().await().indefinitely(); // beside the application's own ticks
            Thread.sleep(50);
        }
        assertThat(sql.queryLong("SELECT count(*) FROM calls c JOIN workflow_runs r ON r.id = c.workflow_run_id"
                + " WHERE r.campaign_id = ?", campaign)).isEqualTo(20);
        assertThat(sql.queryLong("SELECT count(DISTINCT c.to_number) FROM calls c JOIN workflow_runs r"
                + " ON r.id = c.workflow_run_id WHERE r.campaign_id = ?", campaign)).isEqualTo(20);
        assertThat(sql.queryLong("SELECT count(*) FROM calls c JOIN workflow_runs r ON r.id = c.workflow_run_id"
                + " JOIN dnc_numbers d ON d.phone_number = c.to_number AND d.organization_id = c.organization_id"
                + " WHERE r.campaign_id = ?", campaign)).isZero();
        assertThat(sql.queryLong("SELECT count(*) FROM campaign_log_entries WHERE campaign_id = ? AND event ="
                + " 'contact_skipped'", campaign)).isEqualTo(10);
    }
}
