package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Telephony configurations and numbers: encryption at rest, masking, readiness, defaults, scoping. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class TelephonyConfigurationEndToEndTest {

    private static final String SID = "AC" + "0123456789abcdef".repeat(2);
    private static final String BASE = "/api/v1/organizations/telephony-configs";

    @Inject
    AgroalDataSource dataSource;

    private Api.Account account;
    private String key;
    private String otherKey;

    @BeforeEach
    void organizations() {
        account = Api.signUp("tel");
        key = Api.createKey(account, "k");
        otherKey = Api.createKey(Api.signUp("tel-other"), "k");
    }

    private RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    private long twilio(String apiKey, String name, String token) {
        return as(apiKey).body(Map.of("name", name, "config", Map.of("provider", "twilio", "account_sid", SID,
                "auth_token", token))).post(BASE).then().statusCode(200).extract().jsonPath().getLong("id");
    }

    @Test
    void credentialsAreEncryptedAtRestMaskedOnOutputAndKeptWhenSentBackMasked() {
        long id = twilio(key, "Main", "tok_1234567890abcd");
        as(key).get(BASE + "/" + id).then().statusCode(200).body("provider", equalTo("twilio"))
                .body("config.account_sid", equalTo(SID)).body("config.auth_token", equalTo("**************abcd"));
        Sql sql = new Sql(dataSource);
        assertThat(sql.queryLong("SELECT count(*) FROM telephony_configurations WHERE id = ? AND credentials LIKE 'v1:%'"
                + " AND credentials NOT LIKE '%tok_1234567890abcd%'", id)).isEqualTo(1);
        // the masked value sent back keeps the stored token; a new one replaces it
        as(key).body(Map.of("name", "Renamed", "config", Map.of("provider", "twilio", "account_sid", SID,
                "auth_token", "**************abcd"))).put(BASE + "/" + id).then().statusCode(200)
                .body("name", equalTo("Renamed")).body("config.auth_token", equalTo("**************abcd"));
        as(key).body(Map.of("config", Map.of("account_sid", SID, "auth_token", "new-token-9999")))
                .put(BASE + "/" + id).then().statusCode(200).body("config.auth_token", equalTo("**********9999"));
        as(key).body(Map.of("config", Map.of("provider", "telnyx", "api_key", "k"))).put(BASE + "/" + id).then()
                .statusCode(400).body("detail", containsString("cannot change"));
    }

    @Test
    void validationOfProviderFields() {
        as(key).body(Map.of("name", "X", "config", Map.of("provider", "twilio", "account_sid", "nope", "auth_token", "t")))
                .post(BASE).then().statusCode(400).body("detail", containsString("account_sid"));
        as(key).body(Map.of("name", "X", "config", Map.of("provider", "twilio", "account_sid", SID)))
                .post(BASE).then().statusCode(400).body("detail", equalTo("auth_token is required for Twilio"));
        as(key).body(Map.of("name", "X", "config", Map.of("provider", "pigeon"))).post(BASE).then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "config", "provider")));
        as(key).body(Map.of("name", "x".repeat(65), "config", Map.of("provider", "simulator"))).post(BASE).then()
                .statusCode(422);
        twilio(key, "Same", "t1");
        as(key).body(Map.of("name", "same", "config", Map.of("provider", "simulator"))).post(BASE).then().statusCode(409);
    }

    @Test
    void readinessComesFromRealPrerequisites() {
        long id = twilio(key, "Main", "t");
        as(key).get(BASE).then().statusCode(200).body("configurations[0].is_ready_for_outbound", equalTo(false))
                .body("configurations[0].outbound_blocked_reason", equalTo("Add at least one active phone number to call from"))
                .body("configurations[0].phone_number_count", equalTo(0));
        as(key).get("/api/v1/organizations/telephony-config-warnings").then().statusCode(200)
                .body("warnings.message", hasItem("Add at least one active phone number to call from"));
        as(key).body(Map.of("address", "+1 (415) 555-2671")).post(BASE + "/" + id + "/phone-numbers").then()
                .statusCode(200).body("address_normalized", equalTo("+14155552671")).body("address_type", equalTo("pstn"));
        as(key).get(BASE + "/" + id).then().statusCode(200).body("is_ready_for_outbound", equalTo(true))
                .body("outbound_blocked_reason", nullValue()).body("phone_number_count", equalTo(1));
        long plivo = as(key).body(Map.of("name", "Plivo", "config", Map.of("provider", "plivo", "auth_id", "a",
                "auth_token", "t"))).post(BASE).then().statusCode(200).extract().jsonPath().getLong("id");
        as(key).body(Map.of("address", "+442071838750")).post(BASE + "/" + plivo + "/phone-numbers").then().statusCode(200);
        as(key).get(BASE + "/" + plivo).then().body("is_ready_for_outbound", equalTo(true))
                .body("outbound_blocked_reason", nullValue());
        long ari = as(key).body(Map.of("name", "Asterisk", "config", Map.of("provider", "ari",
                "ari_endpoint", "http://pbx.example.com:8088", "app_name", "agents", "app_password", "p")))
                .post(BASE).then().statusCode(200).extract().jsonPath().getLong("id");
        as(key).body(Map.of("address", "+442071838751")).post(BASE + "/" + ari + "/phone-numbers").then()
                .statusCode(200);
        as(key).get(BASE + "/" + ari).then().body("is_ready_for_outbound", equalTo(false))
                .body("outbound_blocked_reason", containsString("ws_client_name"));
        as(key).body(Map.of("name", "Asterisk", "config", Map.of("provider", "ari", "ari_endpoint",
                "http://pbx.example.com:8088", "app_name", "agents", "app_password", "p", "ws_client_name",
                "voiceagent"))).put(BASE + "/" + ari).then().statusCode(200);
        as(key).get(BASE + "/" + ari).then().body("is_ready_for_outbound", equalTo(true))
                .body("outbound_blocked_reason", nullValue());
        as(key).get("/api/v1/organizations/telephony-providers/metadata").then().statusCode(200)
                .body("providers.find { it.provider == 'twilio' }.supports_outbound", equalTo(true))
                .body("providers.find { it.provider == 'plivo' }.supports_outbound", equalTo(true))
                .body("providers.find { it.provider == 'cloudonix' }.supports_outbound", equalTo(true))
                .body("providers.find { it.provider == 'ari' }.supports_outbound", equalTo(true))
                .body("providers.find { it.provider == 'twilio' }.fields.find { it.name == 'auth_token' }.sensitive",
                        equalTo(true));
    }

    @Test
    void theFirstConfigurationIsTheDefaultAndThereIsOnlyEverOne() {
        long first = twilio(key, "First", "t");
        long second = twilio(key, "Second", "t");
        as(key).get(BASE).then().body("configurations.is_default_outbound", equalTo(List.of(true, false)));
        as(key).post(BASE + "/" + second + "/set-default-outbound").then().statusCode(200)
                .body("is_default_outbound", equalTo(true));
        as(key).get(BASE).then().body("configurations.is_default_outbound", equalTo(List.of(false, true)));
        long third = as(key).body(Map.of("name", "Third", "is_default_outbound", true, "config", Map.of("provider",
                "simulator"))).post(BASE).then().statusCode(200).extract().jsonPath().getLong("id");
        as(key).get(BASE).then().body("configurations.is_default_outbound", equalTo(List.of(false, false, true)));
        Sql sql = new Sql(dataSource);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sql.update(
                "UPDATE telephony_configurations SET is_default_outbound = true WHERE id = ?", first))
                .hasMessageContaining("telephony_configurations_one_default");
        // deleting the default hands it to the oldest remaining active configuration
        as(key).delete(BASE + "/" + third).then().statusCode(200);
        as(key).get(BASE).then().body("configurations.is_default_outbound", equalTo(List.of(true, false)));
    }

    @Test
    void numbersAreNormalizedUniquePerOrganizationWithOneDefaultCaller() {
        long id = twilio(key, "Main", "t");
        String numbers = BASE + "/" + id + "/phone-numbers";
        long a = as(key).body(Map.of("address", "020 7183 8750", "country_code", "GB", "label", "London"))
                .post(numbers).then().statusCode(200).body("address_normalized", equalTo("+442071838750"))
                .extract().jsonPath().getLong("id");
        as(key).body(Map.of("address", "+44 20 7183 8750")).post(numbers).then().statusCode(409)
                .body("detail", equalTo("This phone number is already configured in your organization"));
        as(key).body(Map.of("address", "4155552671")).post(numbers).then().statusCode(400)
                .body("detail", containsString("no country code"));
        long b = as(key).body(Map.of("address", "sip:agent@pbx.example.com", "is_default_caller_id", true))
                .post(numbers).then().statusCode(200).body("address_type", equalTo("sip_uri"))
                .body("is_default_caller_id", equalTo(true)).extract().jsonPath().getLong("id");
        as(key).post(numbers + "/" + a + "/set-default-caller").then().statusCode(200)
                .body("is_default_caller_id", equalTo(true));
        as(key).get(numbers + "/" + b).then().statusCode(200).body("is_default_caller_id", equalTo(false));
        as(key).body(Map.of("label", "Main line", "is_active", false)).put(numbers + "/" + a).then().statusCode(200)
                .body("label", equalTo("Main line")).body("is_active", equalTo(false))
                .body("is_default_caller_id", equalTo(false));
        as(key).get(numbers).then().statusCode(200).body("phone_numbers", hasSize(2));
        // the same number is free in another organization
        long theirs = twilio(otherKey, "Theirs", "t");
        as(otherKey).body(Map.of("address", "+442071838750")).post(BASE + "/" + theirs + "/phone-numbers").then()
                .statusCode(200);
        as(key).delete(numbers + "/" + b).then().statusCode(200);
        as(key).get(numbers).then().body("phone_numbers", hasSize(1));
    }

    @Test
    void anotherOrganizationsConfigurationAndNumbersAreNotFound() {
        long theirs = twilio(otherKey, "Theirs", "t");
        long number = as(otherKey).body(Map.of("address", "+14155552671")).post(BASE + "/" + theirs + "/phone-numbers")
                .then().statusCode(200).extract().jsonPath().getLong("id");
        String config = BASE + "/" + theirs;
        as(key).get(config).then().statusCode(404).body("detail", equalTo("Telephony configuration not found"));
        as(key).body(Map.of("name", "x")).put(config).then().statusCode(404);
        as(key).delete(config).then().statusCode(404);
        as(key).post(config + "/set-default-outbound").then().statusCode(404);
        as(key).post(config + "/reactivate").then().statusCode(404);
        as(key).get(config + "/phone-numbers").then().statusCode(404);
        as(key).body(Map.of("address", "+14155552672")).post(config + "/phone-numbers").then().statusCode(404);
        as(key).get(config + "/phone-numbers/" + number).then().statusCode(404);
        as(key).body(Map.of("label", "x")).put(config + "/phone-numbers/" + number).then().statusCode(404);
        as(key).delete(config + "/phone-numbers/" + number).then().statusCode(404);
        as(key).post(config + "/phone-numbers/" + number + "/set-default-caller").then().statusCode(404);
        as(key).get(BASE).then().statusCode(200).body("configurations", hasSize(0));
        as(otherKey).get(config + "/phone-numbers/" + number).then().statusCode(200);
    }

    @Test
    void aConfigurationUsedByACampaignCannotBeDeleted() {
        long id = twilio(key, "Used", "t");
        Sql sql = new Sql(dataSource);
        long workflow = sql.workflow(account.organizationId(), "wf");
        sql.update("INSERT INTO campaigns (organization_id, name, workflow_id, telephony_configuration_id, source_id,"
                + " retry_config) VALUES (?, 'c', ?, ?, 'k', '{}')", account.organizationId(), workflow, id);
        as(key).delete(BASE + "/" + id).then().statusCode(409).body("detail", containsString("used by 1 campaign"));
    }

    @Test
    void trunksBelongToTrunkCapableConfigurationsAndCannotBeDeletedWhileNumbersUseThem() {
        long twilio = twilio(key, "PSTN", "t");
        as(key).get(BASE + "/" + twilio + "/trunks").then().statusCode(400)
                .body("detail", equalTo("Twilio configurations have no trunks"));
        long ari = as(key).body(Map.of("name", "PBX", "config", Map.of("provider", "ari", "ari_endpoint",
                "http://pbx.local:8088", "app_name", "voice", "app_password", "secret"))).post(BASE).then().statusCode(200)
                .body("config.app_password", equalTo("**cret")).extract().jsonPath().getLong("id");
        String trunks = BASE + "/" + ari + "/trunks";
        long trunk = as(key).body(Map.of("name", "Main trunk", "settings", Map.of("context", "from-ai")))
                .post(trunks).then().statusCode(200).body("enabled", equalTo(true))
                .body("settings.context", equalTo("from-ai")).extract().jsonPath().getLong("id");
        as(key).body(Map.of("enabled", false)).put(trunks + "/" + trunk).then().statusCode(200)
                .body("enabled", equalTo(false)).body("name", equalTo("Main trunk"));
        long number = as(key).body(Map.of("address", "PJSIP/1001", "telephony_trunk_id", trunk))
                .post(BASE + "/" + ari + "/phone-numbers").then().statusCode(200)
                .body("telephony_trunk_id", equalTo((int) trunk)).body("address_type", equalTo("sip_extension"))
                .extract().jsonPath().getLong("id");
        as(key).delete(trunks + "/" + trunk).then().statusCode(409).body("detail", containsString("used by phone numbers"));
        // a trunk of another configuration cannot be used
        long otherAri = as(key).body(Map.of("name", "PBX 2", "config", Map.of("provider", "ari", "ari_endpoint",
                "http://pbx2.local:8088", "app_name", "voice", "app_password", "secret"))).post(BASE).then().statusCode(200)
                .extract().jsonPath().getLong("id");
        as(key).body(Map.of("address", "PJSIP/2002", "telephony_trunk_id", trunk)).post(BASE + "/" + otherAri
                + "/phone-numbers").then().statusCode(404).body("detail", equalTo("Trunk not found"));
        as(key).body(Map.of("clear_trunk", true)).put(BASE + "/" + ari + "/phone-numbers/" + number).then()
                .statusCode(200).body("telephony_trunk_id", nullValue());
        as(key).delete(trunks + "/" + trunk).then().statusCode(200);
        as(key).get(trunks).then().statusCode(200).body("trunks", hasSize(0));
        as(otherKey).get(trunks).then().statusCode(404);
    }

    @Test
    void dispositionCodesListBuiltInsThenTheOrganizationsOwn() {
        Sql sql = new Sql(dataSource);
        long workflow = sql.workflow(account.organizationId(), "wf");
        long definition = sql.insertReturningId("INSERT INTO workflow_definitions (organization_id, workflow_id,"
                + " version_number, status, workflow_json) VALUES (?, ?, 1, 'published', '{}')", account.organizationId(),
                workflow);
        for (String code : List.of("zz_custom", "appointment_booked", "user_hangup")) {
            sql.update("INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name, mode, gathered_context)"
                    + " VALUES (?, ?, ?, 'r', 'twilio', ?::jsonb)", account.organizationId(), workflow, definition,
                    "{\"mapped_call_disposition\": \"" + code + "\"}");
        }
        List<String> codes = as(key).get("/api/v1/organizations/disposition-codes").then().statusCode(200)
                .extract().jsonPath().getList("codes");
        assertThat(codes).startsWith("call_duration_exceeded").contains("no-answer", "busy")
                .endsWith("appointment_booked", "zz_custom").doesNotHaveDuplicates();
        as(otherKey).get("/api/v1/organizations/disposition-codes").then().statusCode(200)
                .body("codes", org.hamcrest.Matchers.not(hasItem("zz_custom")));
    }

    @Test
    void callerNumbersAreAcceptedAsTheReferenceAcceptsThemAndAnUnassignedOneIsAWarning() {
        String k = Api.createKey(Api.signUp("callers"), "k");
        long config = twilio(k, "PSTN", "tok_caller_numbers_1");
        // the reference UI's own example: possible for the US plan, but not an assigned range
        long unassigned = as(k).body(Map.of("address", "+19781899185")).post(BASE + "/" + config + "/phone-numbers")
                .then().statusCode(200).body("address_normalized", equalTo("+19781899185"))
                .body("address_type", equalTo("pstn")).body("inbound_workflow_name", nullValue())
                .body("provider_sync", nullValue()).extract().jsonPath().getLong("id");
        as(k).body(Map.of("address", "+14155552671")).post(BASE + "/" + config + "/phone-numbers").then().statusCode(200);
        as(k).body(Map.of("address", "+1978189")).post(BASE + "/" + config + "/phone-numbers").then().statusCode(400)
                .body("detail", containsString("not a valid phone number"));
        as(k).get("/api/v1/organizations/telephony-config-warnings").then().statusCode(200)
                .body("telnyx_missing_webhook_public_key_count", equalTo(0))
                .body("vonage_missing_signature_secret_count", equalTo(0))
                .body("warnings.findAll { it.phone_number_id != null }.phone_number_id", org.hamcrest.Matchers.contains(
                        (int) unassigned))
                .body("warnings.find { it.phone_number_id != null }.message", containsString("+19781899185"));
        // a bare extension where the provider routes through trunks
        long pbx = as(k).body(Map.of("name", "PBX", "config", Map.of("provider", "cloudonix", "bearer_token", "b",
                "domain_id", "example.cloudonix.net"))).post(BASE).then().statusCode(200).extract().jsonPath().getLong("id");
        as(k).body(Map.of("address", "1001")).post(BASE + "/" + pbx + "/phone-numbers").then().statusCode(200)
                .body("address_type", equalTo("sip_extension"));
        as(k).body(Map.of("address", "1002")).post(BASE + "/" + config + "/phone-numbers").then().statusCode(400);
        // contacts to call keep the strict check: the same unassigned number cannot be a test call's target
        long telnyx = as(k).body(Map.of("name", "Telnyx", "config", Map.of("provider", "telnyx", "api_key", "KEY1")))
                .post(BASE).then().statusCode(200).body("setup_checklist.ready_for_outbound", equalTo(false))
                .body("setup_checklist.steps.find { it.key == 'connection_id' }.complete", equalTo(false))
                .body("setup_checklist.steps.find { it.key == 'connection_id' }.blocks_outbound", equalTo(true))
                .body("supports_trunks", equalTo(false)).body("credentials.api_key", equalTo("KEY1".replaceAll(".", "*")))
                .extract().jsonPath().getLong("id");
        as(k).get("/api/v1/organizations/telephony-config-warnings").then()
                .body("telnyx_missing_webhook_public_key_count", equalTo(1));
        as(k).get(BASE + "/" + telnyx).then().statusCode(200).body("sip_connectivity", nullValue())
                .body("setup_checklist.outbound_blocked_reason", equalTo("Add at least one active phone number to call from"))
                .body("setup_checklist.steps.find { it.key == 'webhook_public_key' }.complete", equalTo(false));
    }

    @Test
    void trunksCountTheirNumbersAndNumbersNameTheirInboundWorkflow() {
        String k = Api.createKey(Api.signUp("trunk-counts"), "k");
        long workflow = as(k).body(Map.of("name", "Receptionist", "workflow_definition",
                WorkflowEndToEndTest.definition("Hello"))).post("/api/v1/workflow/create/definition").then()
                .statusCode(200).extract().jsonPath().getLong("id");
        long ari = as(k).body(Map.of("name", "PBX", "config", Map.of("provider", "ari", "ari_endpoint",
                "http://pbx.local:8088", "app_name", "voice", "app_password", "secret"))).post(BASE).then()
                .statusCode(200).extract().jsonPath().getLong("id");
        long trunk = as(k).body(Map.of("name", "Main")).post(BASE + "/" + ari + "/trunks").then().statusCode(200)
                .body("phone_number_count", equalTo(0)).extract().jsonPath().getLong("id");
        as(k).body(Map.of("address", "200", "telephony_trunk_id", trunk, "inbound_workflow_id", workflow))
                .post(BASE + "/" + ari + "/phone-numbers").then().statusCode(200)
                .body("inbound_workflow_name", equalTo("Receptionist"));
        as(k).get(BASE + "/" + ari + "/trunks").then().body("trunks[0].phone_number_count", equalTo(1));
        as(k).get(BASE + "/" + ari).then().statusCode(200).body("supports_trunks", equalTo(true))
                .body("connectivity", equalTo("sip")).body("trunks[0].phone_number_count", equalTo(1))
                .body("credentials.app_password", equalTo("**cret"));
        // another organization's workflow cannot answer this organization's number
        long foreign = as(otherKey).body(Map.of("name", "Theirs", "workflow_definition",
                WorkflowEndToEndTest.definition("Hello"))).post("/api/v1/workflow/create/definition").then()
                .statusCode(200).extract().jsonPath().getLong("id");
        as(k).body(Map.of("address", "201", "inbound_workflow_id", foreign)).post(BASE + "/" + ari + "/phone-numbers")
                .then().statusCode(404).body("detail", equalTo("Workflow not found"));
    }
}
