package dev.voiceagent.deploy.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every failure a client can cause is a 4xx in the spec's shape, never a 500 or a stack trace. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ErrorShapeTest {

    private String key;

    @BeforeEach
    void account() {
        key = Api.createKey(Api.signUp("errors"), "k");
    }

    @Test
    void unknownRoutesAre404NotFound() {
        Api.asKey(key).get("/api/v1/no/such/route").then().statusCode(404).body("detail", equalTo("Not Found"));
        given().get("/definitely-not-here").then().statusCode(404).body("detail", equalTo("Not Found"));
    }

    @Test
    void wrongMethodIs405() {
        Api.asKey(key).delete("/api/v1/campaign/").then().statusCode(405).body("detail", equalTo("Method Not Allowed"));
    }

    @Test
    void malformedJsonIs422AtTheBody() {
        Api.asKey(key).contentType(ContentType.JSON).body("{\"name\": ").post("/api/v1/user/api-keys").then()
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body"))).body("detail[0].type", equalTo("json_invalid"))
                .body(not(containsString("Exception")));
    }

    @Test
    void wrongJsonTypesAre422AtTheField() {
        Api.asKey(key).contentType(ContentType.JSON).body("{\"name\": 5}").post("/api/v1/user/api-keys").then()
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "name")))
                .body("detail[0].type", equalTo("string_type"));
        Api.asKey(key).contentType(ContentType.JSON).body("{\"name\": {\"a\": 1}}").post("/api/v1/user/api-keys").then()
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "name")));
        Api.asKey(key).contentType(ContentType.JSON).body("[1, 2]").post("/api/v1/user/api-keys").then()
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body")));
    }

    @Test
    void missingBodyIs422() {
        Api.asKey(key).contentType(ContentType.JSON).post("/api/v1/user/api-keys").then()
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body"))).body("detail[0].type", equalTo("missing"));
    }

    @Test
    void badPathAndQueryValuesAre422NamingTheParameter() {
        Api.asKey(key).get("/api/v1/campaign/abc").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("path", "campaign_id")))
                .body("detail[0].type", equalTo("int_parsing")).body("detail[0].input", equalTo("abc"));
        Api.asKey(key).get("/api/v1/campaign/99999999999999999999").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("path", "campaign_id")));
        Api.asKey(key).get("/api/v1/user/api-keys?include_archived=maybe").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("query", "include_archived")))
                .body("detail[0].type", equalTo("bool_parsing"));
        Api.asKey(key).delete("/api/v1/user/api-keys/x").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("path", "api_key_id")));
    }

    @Test
    void authenticationIsCheckedBeforeValidation() {
        given().get("/api/v1/campaign/abc").then().statusCode(401).body("detail", equalTo("Authorization header required"));
    }
}
