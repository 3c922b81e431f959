package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.application.organization.TracingCredentialsRepository;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import dev.voiceagent.domain.account.TracingCredentials;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Tracing credentials (both spellings of the path) and each user's onboarding state, with two organizations. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class TracingAndOnboardingEndToEndTest {

    private static final String TRACING = "/api/v1/organizations/tracing-credentials";
    private static final String LANGFUSE = "/api/v1/organizations/langfuse-credentials";
    private static final String ONBOARDING = "/api/v1/user/onboarding-state";

    @Inject
    TracingCredentialsRepository repository;

    @Inject
    AgroalDataSource dataSource;

    private static RequestSpecification as(String key) {
        return given().header("X-API-Key", key).contentType(ContentType.JSON);
    }

    private static Map<String, Object> credentials(String publicKey, String secretKey) {
        return Map.of("host", "https://cloud.langfuse.com", "public_key", publicKey, "secret_key", secretKey,
                "project_id", "proj-1");
    }

    @Test
    void credentialsAreSealedMaskedAndAMaskedKeySentBackKeepsTheStoredOne() {
        Api.Account a = Api.signUp("tracing-a");
        String key = Api.createKey(a, "k");
        String other = Api.createKey(Api.signUp("tracing-b"), "k");
        as(key).get(TRACING).then().statusCode(200).body("configured", equalTo(false)).body("host", equalTo(""))
                .body("secret_key", equalTo(""));
        as(key).delete(TRACING).then().statusCode(404);

        JsonPath saved = as(key).body(credentials("pk-lf-1234567890", "sk-lf-abcdefghij")).post(TRACING).then()
                .statusCode(200).extract().jsonPath();
        assertThat(saved.getString("public_key")).isEqualTo("*".repeat(12) + "7890");
        assertThat(saved.getString("secret_key")).isEqualTo("*".repeat(12) + "ghij");
        assertThat(saved.getBoolean("configured")).isTrue();
        String row = new Sql(dataSource).queryString("SELECT row_to_json(t)::text FROM tracing_credentials t"
                + " WHERE organization_id = ?", a.organizationId());
        assertThat(row).doesNotContain("pk-lf-1234567890").doesNotContain("sk-lf-abcdefghij");

        // the form sends back what it was shown, with one key changed: only that key changes
        as(key).body(credentials("*".repeat(12) + "7890", "sk-lf-new-secret")).post(LANGFUSE).then().statusCode(200);
        TracingCredentials stored = repository.find(a.organizationId()).await().indefinitely().orElseThrow();
        assertThat(stored.publicKey()).isEqualTo("pk-lf-1234567890");
        assertThat(stored.secretKey()).isEqualTo("sk-lf-new-secret");
        as(key).get(LANGFUSE).then().statusCode(200).body("configured", equalTo(true))
                .body("host", equalTo("https://cloud.langfuse.com")).body("project_id", equalTo("proj-1"))
                .body("secret_key", equalTo("************cret"));

        // a masked key that masks nothing stored is refused, not stored
        as(key).body(credentials("***", "sk-lf-new-secret")).post(TRACING).then().statusCode(400);
        assertThat(repository.find(a.organizationId()).await().indefinitely().orElseThrow().publicKey())
                .isEqualTo("pk-lf-1234567890");

        as(other).get(TRACING).then().statusCode(200).body("configured", equalTo(false));
        as(other).delete(TRACING).then().statusCode(404);
        as(key).delete(TRACING).then().statusCode(200);
        as(key).get(TRACING).then().statusCode(200).body("configured", equalTo(false));
        as(key).delete(LANGFUSE).then().statusCode(404);
    }

    @Test
    void incompleteOrMalformedCredentialsAreRefusedAndNothingIsStored() {
        Api.Account a = Api.signUp("tracing-bad");
        String key = Api.createKey(a, "k");
        as(key).body(Map.of("host", "https://cloud.langfuse.com", "public_key", "pk", "secret_key", "sk"))
                .post(TRACING).then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "project_id")));
        as(key).body(Map.of("host", "https://cloud.langfuse.com", "public_key", "pk", "secret_key", "sk",
                "project_id", "")).post(TRACING).then().statusCode(422);
        as(key).body(credentials("pk", "sk").entrySet().stream().collect(Collectors.toMap(
                Map.Entry::getKey, e -> e.getKey().equals("host") ? "ftp://langfuse" : e.getValue())))
                .post(TRACING).then().statusCode(400);
        assertThat(repository.find(a.organizationId()).await().indefinitely()).isEmpty();
    }

    @Test
    void onboardingStartsEmptyAndUpdatesMergeRatherThanReplace() {
        String key = Api.createKey(Api.signUp("onboarding"), "k");
        String other = Api.createKey(Api.signUp("onboarding-other"), "k");
        as(key).get(ONBOARDING).then().statusCode(200).body("skipped", equalTo(false))
                .body("completed_at", equalTo(null)).body("seen_tooltips", equalTo(List.of()))
                .body("completed_actions", equalTo(List.of()));

        as(key).body(Map.of("seen_tooltips", List.of("agent-editor"), "completed_actions", List.of("created_agent")))
                .put(ONBOARDING).then().statusCode(200);
        JsonPath merged = as(key).body(Map.of("seen_tooltips", List.of("campaigns", "agent-editor"),
                "completed_at", "2026-11-23T10:15:30Z")).put(ONBOARDING).then().statusCode(200).extract().jsonPath();
        assertThat(merged.getList("seen_tooltips")).containsExactly("agent-editor", "campaigns");
        assertThat(merged.getList("completed_actions")).containsExactly("created_agent");
        assertThat(merged.getString("completed_at")).isEqualTo("2026-11-23T10:15:30Z");
        as(key).body(Map.of("skipped", true)).put(ONBOARDING).then().statusCode(200)
                .body("skipped", equalTo(true)).body("completed_at", equalTo("2026-11-23T10:15:30Z"));

        as(other).get(ONBOARDING).then().statusCode(200).body("seen_tooltips", equalTo(List.of()));
    }

    @Test
    void twoTabsUpdatingAtOnceBothKeepWhatTheyRecorded() {
        String key = Api.createKey(Api.signUp("onboarding-tabs"), "k");
        List<CompletableFuture<Integer>> updates = IntStream.range(0, 12).mapToObj(i -> CompletableFuture.supplyAsync(
                () -> as(key).body(Map.of("seen_tooltips", List.of("tip-" + i))).put(ONBOARDING).statusCode())).toList();
        assertThat(updates.stream().map(CompletableFuture::join)).containsOnly(200);
        assertThat(as(key).get(ONBOARDING).then().statusCode(200).extract().jsonPath().getList("seen_tooltips"))
                .hasSize(12);
    }

    @Test
    void aBadEntryIsRefusedAndChangesNothing() {
        String key = Api.createKey(Api.signUp("onboarding-bad"), "k");
        as(key).body(Map.of("seen_tooltips", List.of("first"))).put(ONBOARDING).then().statusCode(200);
        as(key).body(Map.of("seen_tooltips", List.of("second", " "))).put(ONBOARDING).then().statusCode(400);
        as(key).body(Map.of("seen_tooltips", List.of("x".repeat(101)))).put(ONBOARDING).then().statusCode(400);
        as(key).body(Map.of("skipped", "maybe")).put(ONBOARDING).then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "skipped")));
        as(key).get(ONBOARDING).then().statusCode(200).body("seen_tooltips", equalTo(List.of("first")));
    }
}
