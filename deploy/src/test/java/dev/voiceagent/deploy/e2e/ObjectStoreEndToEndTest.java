package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** CSV uploads and downloads through the local store's signed URLs, scoped by organization. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ObjectStoreEndToEndTest {

    private static final String CSV = "phone_number,first_name\n+15550000012,Ann\n";
    private Api.Account account;
    private String key;

    private RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void account() {
        account = Api.signUp("store");
        key = Api.createKey(account, "k");
    }

    private JsonPath presign(String base, String name, long size) {
        return as(key).body(Map.of("file_name", name, "file_size", size)).post(base + "/presigned-upload-url")
                .then().statusCode(200).body("expires_in", equalTo(900)).extract().jsonPath();
    }

    @Test
    void uploadThenReadBackThroughSignedUrls() {
        JsonPath upload = presign("/api/v1/object-store", "My Contacts (v2).csv", CSV.length());
        String fileKey = upload.getString("file_key");
        assertThat(fileKey).matches("campaigns/" + account.organizationId() + "/[0-9a-f-]{36}_My_Contacts__v2_\\.csv");
        given().contentType("text/csv").body(CSV).put(upload.getString("upload_url")).then().statusCode(200)
                .body("size", equalTo(CSV.length()));
        as(key).queryParam("key", fileKey).get("/api/v1/object-store/file-metadata").then().statusCode(200)
                .body("key", equalTo(fileKey)).body("metadata.size", equalTo(CSV.length()))
                .body("metadata.content_type", org.hamcrest.Matchers.startsWith("text/csv"));
        String url = as(key).queryParam("key", fileKey).get("/api/v1/s3/signed-url").then().statusCode(200)
                .body("expires_in", equalTo(3600)).body("url", matchesPattern("http://.*signature=.*"))
                .extract().path("url");
        assertThat(given().get(url).then().statusCode(200).extract().asString()).isEqualTo(CSV);
        given().get(url.replaceAll("signature=[0-9a-f]{4}", "signature=0000")).then().statusCode(403);
        given().get(url.replaceAll("expires=\\d+", "expires=9999999999")).then().statusCode(403);
    }

    @Test
    void uploadsAreLimitedToTheSignedSizeAndNeedTheSignature() {
        JsonPath upload = presign("/api/v1/s3", "small.csv", 10);
        given().contentType("text/csv").body(CSV).put(upload.getString("upload_url")).then().statusCode(413);
        given().contentType("text/csv").body("x").put(upload.getString("upload_url").replace("max=10", "max=100"))
                .then().statusCode(403);
        as(key).queryParam("key", upload.getString("file_key")).get("/api/v1/object-store/file-metadata").then()
                .statusCode(200).body("metadata", nullValue());
    }

    @Test
    void requestsAreValidatedAndScopedToTheOrganization() {
        as(key).body(Map.of("file_name", "contacts.xlsx", "file_size", 10)).post("/api/v1/object-store/presigned-upload-url")
                .then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "file_name")));
        as(key).body(Map.of("file_name", "big.csv", "file_size", 10_485_761)).post("/api/v1/object-store/presigned-upload-url")
                .then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "file_size")));
        as(key).body(Map.of("file_name", "empty.csv", "file_size", 0)).post("/api/v1/object-store/presigned-upload-url")
                .then().statusCode(422);
        String foreign = "campaigns/" + (account.organizationId() + 1000) + "/x_contacts.csv";
        as(key).queryParam("key", foreign).get("/api/v1/object-store/signed-url").then().statusCode(403)
                .body("detail", equalTo("Access denied: this file does not belong to your organization"));
        as(key).queryParam("key", foreign).get("/api/v1/s3/file-metadata").then().statusCode(403);
        as(key).queryParam("key", "../../etc/passwd").get("/api/v1/object-store/signed-url").then().statusCode(400)
                .body("detail", equalTo("Invalid key format"));
        as(key).get("/api/v1/object-store/signed-url").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("query", "key")));
    }
}
