package dev.voiceagent.deploy.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.domain.apikey.ApiKeySecret;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class AuthAndApiKeyResourceTest {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void signUpReturnsATokenAndTheUserWithItsNewOrganization() {
        String email = "Mixed.Case-" + UUID.randomUUID() + "@Example.com";
        given().contentType(ContentType.JSON).body(Map.of("email", email, "password", "password1", "name", "Ann"))
                .post("/api/v1/auth/signup").then().statusCode(200)
                .body("token", matchesPattern("[\\w-]+\\.[\\w-]+\\.[\\w-]+"))
                .body("user.email", equalTo(email.toLowerCase()))
                .body("user.name", equalTo("Ann"))
                .body("user.organization_id", notNullValue())
                .body("user.provider_id", matchesPattern("oss_\\d+_[0-9a-f-]{36}"));
        // the password is stored as a bcrypt hash, never in clear
        try (var c = dataSource.getConnection(); var ps = c.prepareStatement("SELECT password_hash FROM users WHERE email = ?")) {
            ps.setString(1, email.toLowerCase());
            try (var rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getString(1)).startsWith("$2a$").doesNotContain("password1");
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aDuplicateEmailInAnyCaseIsA409AndLoginChecksThePassword() {
        Api.Account account = Api.signUp("dup");
        given().contentType(ContentType.JSON).body(Map.of("email", account.email().toUpperCase(), "password", "password9"))
                .post("/api/v1/auth/signup").then().statusCode(409).body("detail", equalTo("Email already registered"));
        given().contentType(ContentType.JSON).body(Map.of("email", account.email(), "password", "wrong-password"))
                .post("/api/v1/auth/login").then().statusCode(401).body("detail", equalTo("Invalid email or password"));
        given().contentType(ContentType.JSON).body(Map.of("email", "nobody-" + UUID.randomUUID() + "@x.io", "password", "x"))
                .post("/api/v1/auth/login").then().statusCode(401).body("detail", equalTo("Invalid email or password"));
        String token = given().contentType(ContentType.JSON)
                .body(Map.of("email", account.email().toUpperCase(), "password", "correct-horse-battery"))
                .post("/api/v1/auth/login").then().statusCode(200)
                .body("user.id", equalTo((int) account.userId())).extract().path("token");
        given().header("authorization", token).get("/api/v1/auth/me").then().statusCode(200)
                .body("email", equalTo(account.email())).body("organization_id", equalTo((int) account.organizationId()));
        given().header("authorization", "Bearer " + token).get("/api/v1/user/auth/user").then().statusCode(200)
                .body("id", equalTo((int) account.userId())).body("is_superuser", equalTo(false));
    }

    @Test
    void signUpInputIsValidatedWith422() {
        given().contentType(ContentType.JSON).body(Map.of("email", "not-an-email", "password", "short"))
                .post("/api/v1/auth/signup").then().statusCode(422)
                .body("detail", hasSize(2))
                .body("detail.find { it.loc == ['body', 'password'] }.type", equalTo("string_length"))
                .body("detail.find { it.loc == ['body', 'email'] }.msg", notNullValue());
        given().contentType(ContentType.JSON).body(Map.of("password", "password1"))
                .post("/api/v1/auth/signup").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "email")))
                .body("detail[0].type", equalTo("missing")).body("detail[0].msg", equalTo("Field required"));
    }

    @Test
    void apiKeysAreShownOnceScopedToTheOrganizationAndArchivable() {
        Api.Account ann = Api.signUp("ann");
        Api.Account bob = Api.signUp("bob");
        var created = given().header("authorization", ann.token()).contentType(ContentType.JSON)
                .body(Map.of("name", "deploy bot")).post("/api/v1/user/api-keys").then().statusCode(200)
                .body("api_key", matchesPattern("dgr_[A-Za-z0-9_-]{43}"))
                .body("name", equalTo("deploy bot"))
                .extract().jsonPath();
        String key = created.getString("api_key");
        assertThat(created.getString("key_prefix")).isEqualTo(key.substring(0, 8));
        long id = created.getLong("id");
        String bobsKey = Api.createKey(bob, "bob's");
        long bobsId = Api.keyId(bob, bobsKey);

        // listed without the key itself; last_used_at appears once the key is used
        Api.asKey(key).get("/api/v1/user/api-keys").then().statusCode(200)
                .body("", hasSize(1)).body("[0].id", equalTo((int) id)).body("[0].api_key", nullValue())
                .body("[0].is_active", equalTo(true)).body("[0].archived_at", nullValue())
                .body("[0].last_used_at", notNullValue());

        // another organization's key is a 404 and stays active
        Api.asKey(key).delete("/api/v1/user/api-keys/" + bobsId).then().statusCode(404)
                .body("detail", equalTo("API key not found"));
        Api.asKey(key).put("/api/v1/user/api-keys/" + bobsId + "/reactivate").then().statusCode(404);
        Api.asKey(bobsKey).get("/api/v1/user/api-keys").then().statusCode(200).body("", hasSize(1));

        // archived keys hidden unless include_archived=true
        given().header("authorization", ann.token()).delete("/api/v1/user/api-keys/" + id).then().statusCode(200);
        given().header("authorization", ann.token()).get("/api/v1/user/api-keys").then().statusCode(200).body("", hasSize(0));
        given().header("authorization", ann.token()).get("/api/v1/user/api-keys?include_archived=true").then()
                .statusCode(200).body("", hasSize(1)).body("[0].is_active", equalTo(false))
                .body("[0].archived_at", notNullValue());
        Api.asKey(key).get("/api/v1/user/api-keys").then().statusCode(401);
    }

    @Test
    void onlyTheHashAndPrefixOfAKeyAreStored() {
        Api.Account ann = Api.signUp("hash");
        String key = Api.createKey(ann, "k");
        try (var c = dataSource.getConnection();
                var ps = c.prepareStatement("SELECT key_hash, key_prefix FROM api_keys WHERE organization_id = ?")) {
            ps.setLong(1, ann.organizationId());
            try (var rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo(new ApiKeySecret(key).hash());
                assertThat(rs.getString(2)).isEqualTo(key.substring(0, 8));
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }
}
