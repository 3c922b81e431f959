package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Legal calling hours end to end: the organization's and a campaign's windows, and the dispatcher reading them in
 * each contact's local time (its timezone column, else its number's zones, the most restrictive of several).
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class CallingHoursEndToEndTest {

    @Inject
    AgroalDataSource dataSource;

    private Sql sql;
    private String key;
    private String otherKey;

    private RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void organization() {
        sql = new Sql(dataSource);
        key = Api.createKey(Api.signUp("hours"), "k");
        otherKey = Api.createKey(Api.signUp("hours-other"), "k");
    }

    private long campaign(String csv) {
        as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator", "ring_delay_ms", 30,
                "default_outcome", "completed", "default_duration_seconds", 1)))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
        long workflow = as(key).body(Map.of("name", "Caller", "workflow_definition",
                        WorkflowEndToEndTest.definition("Remind"))).post("/api/v1/workflow/create/definition").then()
                .statusCode(200).extract().jsonPath().getLong("id");
        byte[] bytes = csv.getBytes(StandardCharsets.UTF_8);
        JsonPath upload = as(key).body(Map.of("file_name", "contacts.csv", "file_size", bytes.length))
                .post("/api/v1/object-store/presigned-upload-url").then().statusCode(200).extract().jsonPath();
        given().contentType("text/csv").body(bytes).put(upload.getString("upload_url")).then().statusCode(200);
        return as(key).body(Map.of("name", "Reminders", "workflow_id", workflow, "source_type", "csv", "source_id",
                        upload.getString("file_key"), "max_concurrency", 3)).post("/api/v1/campaign/create").then()
                .statusCode(200).extract().jsonPath().getLong("id");
    }

    @Test
    void theOrganizationsAndACampaignsHoursWideningNeedsAReasonInTheLog() {
        as(key).get("/api/v1/organizations/calling-hours").then().statusCode(200)
                .body("start", equalTo("00:00")).body("end", equalTo("24:00")); // the test installation's default
        as(key).body(Map.of("start", "08:00", "end", "21:00")).put("/api/v1/organizations/calling-hours").then()
                .statusCode(200).body("start", equalTo("08:00"));
        as(key).body(Map.of("start", "25:00", "end", "21:00")).put("/api/v1/organizations/calling-hours").then()
                .statusCode(422);
        as(key).body(Map.of("start", "21:00", "end", "08:00")).put("/api/v1/organizations/calling-hours").then()
                .statusCode(400).body("detail", containsString("must start before they end"));
        as(otherKey).get("/api/v1/organizations/calling-hours").then().body("end", equalTo("24:00"));

        long campaign = campaign("phone_number,first_name\n+442079460501,Ann\n");
        String path = "/api/v1/campaign/" + campaign + "/calling-hours";
        as(key).get(path).then().statusCode(200).body("campaign", nullValue()).body("effective.end", equalTo("21:00"));
        as(key).body(Map.of("start", "09:00", "end", "17:00")).put(path).then().statusCode(200)
                .body("campaign.start", equalTo("09:00")).body("effective.end", equalTo("17:00"))
                .body("override_reason", nullValue());
        as(key).body(Map.of("start", "07:00", "end", "22:00")).put(path).then().statusCode(400)
                .body("detail", containsString("an override_reason is required"));
        as(key).body(Map.of("start", "07:00", "end", "22:00", "override_reason", "consented callbacks")).put(path)
                .then().statusCode(200).body("override_reason", equalTo("consented callbacks"))
                .body("effective.start", equalTo("07:00"));
        as(otherKey).get(path).then().statusCode(404);
        as(otherKey).body(Map.of("start", "09:00", "end", "17:00")).put(path).then().statusCode(404);
        as(key).delete(path).then().statusCode(200).body("campaign", nullValue());
        List<String> events = as(key).get("/api/v1/campaign/" + campaign).then().extract().jsonPath()
                .getList("logs.event", String.class);
        assertThat(events).containsSubsequence("calling_hours_changed", "calling_hours_override",
                "calling_hours_changed");
        Map<String, Object> override = as(key).get("/api/v1/campaign/" + campaign).then().extract().jsonPath()
                .getMap("logs.find { it.event == 'calling_hours_override' }.details");
        assertThat(override).containsEntry("override_reason", "consented callbacks").containsEntry("start", "07:00");
    }

    @Test
    void eachContactIsDialedOnlyInsideTheHoursOfItsOwnZones() throws Exception {
        // a window open now in London (for the next hour or two) and closed in Sydney, 9 to 11 hours ahead
        int hour = Instant.now().atZone(ZoneId.of("Europe/London")).getHour();
        String end = hour >= 22 ? "24:00" : "%02d:00".formatted(hour + 2);
        as(key).body(Map.of("start", "%02d:00".formatted(hour), "end", end))
                .put("/api/v1/organizations/calling-hours").then().statusCode(200);
        long campaign = campaign("phone_number,timezone,first_name\n"
                + "+442079460501,,Ann\n" // London by its number: open
                + "+61293744000,,Bo\n" // Sydney by its number: closed now, waits for its morning
                + "+61293744001,Europe/London,Cy\n" // a Sydney number whose row says London: the row wins
                + "+79123456789,,Di\n"); // a Russian mobile: 16 zones that never share two hours: never lawful
        as(key).post("/api/v1/campaign/" + campaign + "/start").then().statusCode(200);

        Instant deadline = Instant.now().plusSeconds(30);
        while (sql.queryLong("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ? AND state = 'done'",
                campaign) < 3) {
            assertThat(Instant.now()).as("the open contacts are called").isBefore(deadline);
            Thread.sleep(200);
        }
        Thread.sleep(500);
        assertThat(sql.queryString("SELECT string_agg(c.to_number, ',' ORDER BY c.to_number) FROM calls c"
                + " JOIN workflow_runs r ON r.id = c.workflow_run_id WHERE r.campaign_id = ?", campaign))
                .isEqualTo("+442079460501,+61293744001");
        assertThat(sql.queryString("SELECT state || ' ' || (next_attempt_at > now()) FROM campaign_contacts"
                + " WHERE campaign_id = ? AND phone_number = '+61293744000'", campaign)).isEqualTo("pending true");
        assertThat(sql.queryString("SELECT last_outcome FROM campaign_contacts WHERE campaign_id = ?"
                + " AND phone_number = '+79123456789'", campaign)).isEqualTo("skipped_outside_calling_hours");
        JsonPath state = as(key).get("/api/v1/campaign/" + campaign).then().statusCode(200)
                .body("state", equalTo("running")).extract().jsonPath();
        Map<String, Object> skipped = state.getMap("logs.find { it.event == 'contact_skipped' }.details");
        assertThat(skipped).containsEntry("reason", "outside_calling_hours")
                .containsEntry("phone_number", "+79123456789");
        assertThat(String.valueOf(skipped.get("time_zones"))).contains("Europe/Moscow", "Asia/Vladivostok");
    }

    @Test
    void aCampaignHeldBackByCallingHoursSaysSoOnceCountsItsWaitingContactsAndSaysWhenItResumes() throws Exception {
        // hours open now in London for an hour or two: closed in Sydney (9 to 11 hours ahead)
        int hour = Instant.now().atZone(ZoneId.of("Europe/London")).getHour();
        String end = hour >= 22 ? "24:00" : "%02d:00".formatted(hour + 2);
        as(key).body(Map.of("start", "%02d:00".formatted(hour), "end", end))
                .put("/api/v1/organizations/calling-hours").then().statusCode(200);
        long campaign = campaign("phone_number,timezone,first_name\n+61293744000,,Bo\n");
        as(key).post("/api/v1/campaign/" + campaign + "/start").then().statusCode(200);

        Instant deadline = Instant.now().plusSeconds(30);
        while (heldEntries(campaign, "dispatch_held_calling_hours") == 0) {
            assertThat(Instant.now()).as("the hold is logged").isBefore(deadline);
            Thread.sleep(200);
        }
        JsonPath progress = as(key).get("/api/v1/campaign/" + campaign + "/progress").then().statusCode(200)
                .extract().jsonPath();
        assertThat(progress.getLong("dispatch.waiting_for_calling_hours")).isEqualTo(1);
        Instant opens = Instant.parse(progress.getString("dispatch.next_calling_hours_at"));
        assertThat(opens).as("Sydney's next opening of the hours").isAfter(Instant.now().plusSeconds(3_600));
        assertThat(opens.atZone(ZoneId.of("Australia/Sydney")).getMinute()).isZero();
        Thread.sleep(2_500); // more ticks: said once, not per tick or per contact
        assertThat(heldEntries(campaign, "dispatch_held_calling_hours")).isEqualTo(1);
        assertThat(sql.queryLong("SELECT count(*) FROM calls c JOIN workflow_runs r ON r.id = c.workflow_run_id"
                + " WHERE r.campaign_id = ?", campaign)).isZero();

        // the hours open (widened, and the contact due again): dispatch goes on and says so
        as(key).body(Map.of("start", "00:00", "end", "24:00")).put("/api/v1/organizations/calling-hours").then()
                .statusCode(200);
        sql.update("UPDATE campaign_contacts SET next_attempt_at = now() WHERE campaign_id = ?", campaign);
        deadline = Instant.now().plusSeconds(30);
        while (heldEntries(campaign, "dispatch_resumed_calling_hours") == 0) {
            assertThat(Instant.now()).as("the resumption is logged").isBefore(deadline);
            Thread.sleep(200);
        }
        assertThat(heldEntries(campaign, "dispatch_held_calling_hours")).isEqualTo(1);
        assertThat(as(key).get("/api/v1/campaign/" + campaign + "/progress").then().statusCode(200).extract()
                .jsonPath().getLong("dispatch.waiting_for_calling_hours")).isZero();
    }

    private int heldEntries(long campaign, String event) {
        return as(key).get("/api/v1/campaign/" + campaign).then().statusCode(200).extract().jsonPath()
                .getList("logs.findAll { it.event == '" + event + "' }").size();
    }
}
