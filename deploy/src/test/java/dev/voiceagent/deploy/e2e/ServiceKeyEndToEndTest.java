package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import dev.voiceagent.deploy.support.TestClock;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Service keys: machine credentials that authenticate like API keys, until they expire or are archived. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ServiceKeyEndToEndTest {

    @Inject
    AgroalDataSource dataSource;

    @AfterEach
    void timeGoesBack() {
        TestClock.reset();
    }

    private static RequestSpecification as(String key) {
        return given().header("X-API-Key", key).contentType(ContentType.JSON);
    }

    private static JsonPath create(String key, Map<String, Object> body) {
        return as(key).body(body).post("/api/v1/user/service-keys").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void aServiceKeyIsShownOnceStoredAsAHashAndAuthenticatesInItsOrganization() {
        Api.Account account = Api.signUp("svc");
        String key = Api.createKey(account, "k");
        Instant before = Instant.now();
        JsonPath created = create(key, Map.of("name", "voice runtime", "expires_in_days", 30));
        String serviceKey = created.getString("service_key");
        assertThat(serviceKey).startsWith("dgs_").hasSizeGreaterThan(40);
        assertThat(created.getString("key_prefix")).isEqualTo(serviceKey.substring(0, 8));
        assertThat(created.getString("name")).isEqualTo("voice runtime");
        Instant expires = Instant.parse(created.getString("expires_at"));
        assertThat(expires).isBetween(before.plus(Duration.ofDays(30)).minusSeconds(5),
                Instant.now().plus(Duration.ofDays(30)).plusSeconds(5));

        String row = new Sql(dataSource).queryString("SELECT row_to_json(s)::text FROM service_keys s WHERE id = ?",
                created.getLong("id"));
        assertThat(row).doesNotContain(serviceKey).doesNotContain(serviceKey.substring(8));

        // in X-API-Key exactly like an API key, scoped to its organization
        as(serviceKey).get("/api/v1/organizations/context").then().statusCode(200)
                .body("organization_id", equalTo((int) account.organizationId()));
        JsonPath listed = as(key).get("/api/v1/user/service-keys").then().statusCode(200).extract().jsonPath();
        assertThat(listed.getList("name")).containsExactly("voice runtime");
        assertThat(listed.getBoolean("[0].is_active")).isTrue();
        assertThat(listed.getString("[0].created_by")).isEqualTo(String.valueOf(account.userId()));
        assertThat(listed.getString("[0].last_used_at")).isNotNull();
        assertThat(listed.getString("[0].expires_at")).isNotNull();
        assertThat(listed.prettify()).doesNotContain(serviceKey);
    }

    @Test
    void anArchivedKeyIsRefusedOnTheNextRequestAndAReactivatedOneWorksAgain() {
        String key = Api.createKey(Api.signUp("svc-archive"), "k");
        JsonPath created = create(key, Map.of("name", "ci"));
        String serviceKey = created.getString("service_key");
        long id = created.getLong("id");
        as(serviceKey).get("/api/v1/organizations/context").then().statusCode(200);

        as(key).delete("/api/v1/user/service-keys/" + id).then().statusCode(200).body("success", equalTo(true));
        as(serviceKey).get("/api/v1/organizations/context").then().statusCode(401);
        assertThat(as(key).get("/api/v1/user/service-keys").then().statusCode(200).extract().jsonPath()
                .getList("id")).isEmpty();
        JsonPath all = as(key).get("/api/v1/user/service-keys?include_archived=true").then().statusCode(200).extract()
                .jsonPath();
        assertThat(all.getString("[0].archived_at")).isNotNull();
        assertThat(all.getBoolean("[0].is_active")).isFalse();

        as(key).put("/api/v1/user/service-keys/" + id + "/reactivate").then().statusCode(200)
                .body("success", equalTo(true));
        as(serviceKey).get("/api/v1/organizations/context").then().statusCode(200);
    }

    @Test
    void anExpiredKeyIsRefusedAndCannotBeReactivated() {
        String key = Api.createKey(Api.signUp("svc-expiry"), "k");
        JsonPath created = create(key, Map.of("name", "short lived", "expires_in_days", 1));
        String serviceKey = created.getString("service_key");
        as(serviceKey).get("/api/v1/organizations/context").then().statusCode(200);

        TestClock.advance(Duration.ofHours(23));
        as(serviceKey).get("/api/v1/organizations/context").then().statusCode(200);
        TestClock.advance(Duration.ofHours(2));
        as(serviceKey).get("/api/v1/organizations/context").then().statusCode(401);
        assertThat(as(key).get("/api/v1/user/service-keys").then().statusCode(200).extract().jsonPath()
                .getBoolean("[0].is_active")).isFalse();
        as(key).put("/api/v1/user/service-keys/" + created.getLong("id") + "/reactivate").then().statusCode(400)
                .body("detail", containsString("expired"));
        as(serviceKey).get("/api/v1/organizations/context").then().statusCode(401);
    }

    @Test
    void anotherOrganizationsKeyIsNotFoundAndItsListIsItsOwn() {
        String a = Api.createKey(Api.signUp("svc-a"), "k");
        String b = Api.createKey(Api.signUp("svc-b"), "k");
        JsonPath created = create(a, Map.of("name", "a's runtime"));
        long id = created.getLong("id");
        as(b).delete("/api/v1/user/service-keys/" + id).then().statusCode(404);
        as(b).put("/api/v1/user/service-keys/" + id + "/reactivate").then().statusCode(404);
        assertThat(as(b).get("/api/v1/user/service-keys?include_archived=true").then().statusCode(200).extract()
                .jsonPath().getList("id")).isEmpty();
        as(created.getString("service_key")).get("/api/v1/organizations/context").then().statusCode(200);
    }

    @Test
    void theLifetimeIsOneTo365DaysAnd90WhenNotGiven() {
        String key = Api.createKey(Api.signUp("svc-days"), "k");
        for (int days : List.of(0, 366, -5)) {
            as(key).body(Map.of("name", "x", "expires_in_days", days)).post("/api/v1/user/service-keys").then()
                    .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "expires_in_days")));
        }
        as(key).body(Map.of("expires_in_days", 10)).post("/api/v1/user/service-keys").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "name")));
        Map<String, Object> nullDays = new HashMap<>();
        nullDays.put("name", "default lifetime");
        nullDays.put("expires_in_days", null);
        for (Map<String, Object> body : List.of(Map.<String, Object>of("name", "default lifetime"), nullDays)) {
            Instant expires = Instant.parse(create(key, body).getString("expires_at"));
            assertThat(Duration.between(Instant.now(), expires)).isBetween(Duration.ofDays(90).minusMinutes(1),
                    Duration.ofDays(90));
        }
        assertThat(as(key).get("/api/v1/user/service-keys").then().statusCode(200).extract().jsonPath().getList("id"))
                .hasSize(2);
    }
}
