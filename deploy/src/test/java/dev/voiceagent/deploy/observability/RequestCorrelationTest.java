package dev.voiceagent.deploy.observability;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every request has an id: the caller's X-Request-Id when sane, else a new one; logs carry it. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class RequestCorrelationTest {

    private final List<String[]> lines = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            String requestId = record instanceof ExtLogRecord ext ? ext.getMdc("request_id") : null;
            lines.add(new String[] {record.getMessage(), requestId});
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        Logger.getLogger(LogProbeRoute.class.getName()).addHandler(capture);
    }

    @AfterEach
    void stop() {
        Logger.getLogger(LogProbeRoute.class.getName()).removeHandler(capture);
    }

    @Test
    void aSaneCallerIdIsKeptAndEchoed() {
        given().header("X-Request-Id", "gw-7f3a.42:edge_1").get("/api/v1/health").then().statusCode(200)
                .header("X-Request-Id", equalTo("gw-7f3a.42:edge_1"));
    }

    @Test
    void withoutOrWithAnUnsafeIdANewOneIsGiven() {
        String first = given().get("/api/v1/health").then().statusCode(200)
                .header("X-Request-Id", matchesPattern("[0-9a-f]{24}")).extract().header("X-Request-Id");
        String second = given().get("/api/v1/health").then().extract().header("X-Request-Id");
        assertThat(second).isNotEqualTo(first);
        given().header("X-Request-Id", "forged\" level=ERROR").get("/api/v1/health").then()
                .header("X-Request-Id", matchesPattern("[0-9a-f]{24}"));
        given().header("X-Request-Id", "x".repeat(129)).get("/api/v1/health").then()
                .header("X-Request-Id", matchesPattern("[0-9a-f]{24}"));
    }

    @Test
    void errorsAndUnknownRoutesCarryTheIdToo() {
        given().header("X-Request-Id", "req-404").get("/api/v1/no/such/route").then().statusCode(404)
                .header("X-Request-Id", equalTo("req-404"));
        given().header("X-Request-Id", "req-401").get("/api/v1/campaign/").then().statusCode(401)
                .header("X-Request-Id", equalTo("req-401"));
        // rerouted internally to /q/openapi: still one id, the caller's
        given().header("X-Request-Id", "req-openapi").get("/api/v1/openapi.json").then().statusCode(200)
                .header("X-Request-Id", equalTo("req-openapi"));
        String generated = given().get("/api/v1/openapi.json").then().statusCode(200).extract().header("X-Request-Id");
        assertThat(generated).matches("[0-9a-f]{24}");
    }

    @Test
    void linesLoggedWhileServingARequestCarryItsIdAcrossTheDatabaseHop() {
        given().header("X-Request-Id", "probe-1").get(LogProbeRoute.PATH).then().statusCode(204);
        given().header("X-Request-Id", "probe-2").get(LogProbeRoute.PATH).then().statusCode(204);
        assertThat(lines).extracting(line -> line[0] + " / " + line[1]).containsExactly(
                "probe before the query / probe-1", "probe after the query / probe-1",
                "probe before the query / probe-2", "probe after the query / probe-2");
    }
}
