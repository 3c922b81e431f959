package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class TurnEndToEndTest {

    @Test
    void aSignedInUserGetsCoturnCredentialsForTheConfiguredRelay() throws Exception {
        Api.Account account = Api.signUp("turn");
        String key = Api.createKey(account, "k");
        given().get("/api/v1/turn/credentials").then().statusCode(401);
        JsonPath turn = given().header("X-API-Key", key).get("/api/v1/turn/credentials").then().statusCode(200)
                .extract().jsonPath();
        String username = turn.getString("username");
        long expiry = Long.parseLong(username.substring(0, username.indexOf(':')));
        assertThat(username).endsWith(":" + account.userId());
        assertThat(expiry - Instant.now().getEpochSecond()).isBetween(86_390L, 86_410L);
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec("test-turn-secret".getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        assertThat(turn.getString("password")).isEqualTo(Base64.getEncoder().encodeToString(
                mac.doFinal(username.getBytes(StandardCharsets.UTF_8))));
        assertThat(turn.getLong("ttl")).isEqualTo(86_400);
        assertThat(turn.getList("uris")).containsExactly("turn:turn.test.local:3478",
                "turn:turn.test.local:3478?transport=tcp");
    }
}
