package dev.voiceagent.deploy.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

/** Node types carry the reference's llm_hint and docs_url; docs_url is a page this service serves. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class NodeTypeDocsTest {

    @Test
    void eachNodeTypeLinksToItsDocumentationPageRenderedFromTheRegistry() {
        String key = Api.createKey(Api.signUp("docs"), "k");
        String docs = Api.asKey(key).get("/api/v1/node-types/startCall").then().statusCode(200)
                .body("llm_hint", containsString("Exactly one per workflow"))
                .body("properties.find { it.name == 'greeting' }.display_options.show.greeting_type", hasItem("text"))
                .body("properties.find { it.name == 'extraction_prompt' }.editor", equalTo("textarea"))
                .body("properties.find { it.name == 'prompt' }.placeholder", notNullValue())
                .extract().path("docs_url");
        org.assertj.core.api.Assertions.assertThat(docs)
                .isEqualTo("http://localhost:" + RestAssured.port + "/docs/node-types/startCall");
        // the page is public, as documentation is
        given().urlEncodingEnabled(false).get(docs.substring(docs.indexOf("/docs/"))).then().statusCode(200)
                .contentType(containsString("text/html")).body(containsString("Start Call"))
                .body(containsString("greeting_type")).body(containsString("Used when <code>greeting_type</code> is text"));
        Api.asKey(key).get("/api/v1/node-types").then().statusCode(200)
                .body("node_types.docs_url", hasItem(containsString("/docs/node-types/webhook")));
        given().urlEncodingEnabled(false).get("/docs/node-types/%3Cscript%3E").then().statusCode(404)
                .body(not(containsString("<script>"))).body(containsString("&lt;script&gt;"));
    }
}
