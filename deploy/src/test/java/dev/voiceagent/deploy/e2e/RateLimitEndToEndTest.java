package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;

import dev.voiceagent.application.ratelimit.RateLimitService;
import dev.voiceagent.application.ratelimit.RateLimitStore;
import dev.voiceagent.application.ratelimit.RateLimitUseCase;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Per-key rate limits: the headers on every response, a 429 under a burst, and a bucket shared by replicas. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class RateLimitEndToEndTest {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RateLimitStore store;

    private Sql sql;
    private Api.Account account;

    @BeforeEach
    void organization() {
        sql = new Sql(dataSource);
        account = Api.signUp("limits");
    }

    private void limit(double perSecond, int burst) {
        sql.update("UPDATE organizations SET rate_limit_per_second = ?, rate_limit_burst = ? WHERE id = ?", perSecond,
                burst, account.organizationId());
    }

    private static Response call(String key) {
        return given().header("X-API-Key", key).get("/api/v1/folder/");
    }

    @Test
    void everyResponseToAKeyCarriesTheRateLimitHeaders() {
        String key = Api.createKey(account, "k");
        call(key).then().statusCode(200).header("RateLimit-Limit", "100000")
                .header("RateLimit-Remaining", notNullValue()).header("RateLimit-Reset", notNullValue());
        given().header("X-API-Key", key).get("/api/v1/campaign/999999999").then().statusCode(404)
                .header("RateLimit-Limit", "100000"); // errors too
        given().get("/api/v1/health").then().statusCode(200).header("RateLimit-Limit", (String) null); // no key
    }

    @Test
    void aBurstBeyondTheBucketIsA429WithRetryAfterAndAnotherKeyIsNotAffected() throws Exception {
        limit(5, 10);
        String key = Api.createKey(account, "burst");
        String other = Api.createKey(account, "other");
        long started = System.nanoTime();
        int allowed = 0;
        Response refused = null;
        for (int i = 0; i < 40; i++) {
            Response r = call(key);
            if (r.statusCode() == 200) {
                allowed++;
            } else {
                assertThat(r.statusCode()).isEqualTo(429);
                refused = r;
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        assertThat(allowed).isGreaterThanOrEqualTo(10).isLessThanOrEqualTo((int) (10 + 5 * seconds) + 1);
        assertThat(refused).isNotNull();
        refused.then().header("Retry-After", notNullValue()).header("RateLimit-Limit", "10")
                .header("RateLimit-Remaining", "0")
                .body("detail", startsWith("Rate limit exceeded for this key: 5 requests per second with bursts of 10"));
        assertThat(Integer.parseInt(refused.header("Retry-After"))).isBetween(1, 2);
        call(other).then().statusCode(200).header("RateLimit-Limit", "10"); // its own bucket
        Thread.sleep(1_200);
        call(key).then().statusCode(200); // refilled
    }

    /**
     * A second replica is another service over the same shared buckets: whichever replica the requests reach,
     * the key gets no more than its bucket holds.
     */
    @Test
    void twoReplicasShareTheBucketWithNoOvershoot() {
        limit(2, 8);
        String key = Api.createKey(account, "shared");
        long keyId = Api.keyId(account, key);
        RateLimitService replicaB = new RateLimitService(store, true, 100_000, 100_000, System::nanoTime);
        Principal sameKey = new Principal(account.userId(), account.organizationId(), Principal.Method.API_KEY,
                "api_key:" + keyId);
        long started = System.nanoTime();
        int allowed = 0;
        for (int i = 0; i < 20; i++) {
            if (call(key).statusCode() == 200) {
                allowed++;
            }
            RateLimitUseCase.Decision b = replicaB.admit(sameKey).await().indefinitely();
            if (b.allowed()) {
                allowed++;
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        assertThat(allowed).isGreaterThanOrEqualTo(8).isLessThanOrEqualTo((int) (8 + 2 * seconds) + 1);
        assertThat(sql.queryLong("SELECT count(*) FROM rate_limit_buckets WHERE key_id = ?", "api_key:" + keyId))
                .isEqualTo(1);
    }

    @Test
    void theKeysLimitIsNotTheConcurrentCallLimit() {
        limit(1, 1);
        String key = Api.createKey(account, "tight");
        call(key).then().statusCode(200);
        call(key).then().statusCode(429).body("detail", startsWith("Rate limit exceeded"))
                .body("detail", org.hamcrest.Matchers.not(equalTo("Concurrent call limit reached")));
    }
}
