package dev.voiceagent.deploy.support;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.Map;
import java.util.UUID;

/** Test shortcuts over the public HTTP API: sign up an organization, issue keys, call as a key. */
public final class Api {

    private Api() {
    }

    public record Account(long userId, long organizationId, String email, String token) {
    }

    public static Account signUp(String prefix) {
        String email = prefix + "-" + UUID.randomUUID() + "@example.com";
        Response response = given().contentType(ContentType.JSON)
                .body(Map.of("email", email, "password", "correct-horse-battery", "name", prefix))
                .post("/api/v1/auth/signup").then().statusCode(200).extract().response();
        return new Account(((Number) response.path("user.id")).longValue(), ((Number) response.path("user.organization_id")).longValue(), email,
                response.path("token"));
    }

    public static String createKey(Account account, String name) {
        return given().header("authorization", "Bearer " + account.token()).contentType(ContentType.JSON)
                .body(Map.of("name", name)).post("/api/v1/user/api-keys").then().statusCode(200)
                .extract().path("api_key");
    }

    public static long keyId(Account account, String apiKey) {
        return ((Number) given().header("authorization", account.token()).contentType(ContentType.JSON)
                .get("/api/v1/user/api-keys?include_archived=true").then().statusCode(200).extract()
                .jsonPath().getList("findAll { it.key_prefix == '" + apiKey.substring(0, 8) + "' }.id").getFirst())
                .longValue();
    }

    public static RequestSpecification asKey(String apiKey) {
        return given().header("X-API-Key", apiKey);
    }

    /** A run's artifact (recording, transcript) through its public link: a redirect to a signed URL, followed. */
    public static byte[] download(String link) {
        String signed = given().redirects().follow(false)
                .get(link.substring(link.indexOf("/api/v1/"))).then().statusCode(302).extract().header("Location");
        return given().urlEncodingEnabled(false)
                .get(signed.substring(signed.indexOf("/api/v1/"))).then().statusCode(200).extract().asByteArray();
    }
}
