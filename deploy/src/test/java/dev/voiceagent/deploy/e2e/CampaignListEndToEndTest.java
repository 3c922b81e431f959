package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.voiceagent.application.campaign.CampaignRepository;
import dev.voiceagent.application.campaign.FoldCampaignTalliesUseCase;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.CampaignState;
import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.LogLevel;
import dev.voiceagent.domain.campaign.RetryConfig;
import dev.voiceagent.domain.campaign.ScheduleConfig;
import dev.voiceagent.domain.campaign.TimeSlot;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two organizations sign up and create keys; campaigns are stored through the repository; each
 * organization lists only its own, with every field of the spec's CampaignResponse.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class CampaignListEndToEndTest {

    @Inject
    CampaignRepository campaigns;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    FoldCampaignTalliesUseCase tallies;

    private Sql sql;
    private Api.Account alpha;
    private Api.Account beta;
    private String alphaKey;
    private String betaKey;

    private static final Instant T0 = Instant.parse("2026-03-01T08:00:00Z");

    @BeforeEach
    void twoOrganizations() {
        sql = new Sql(dataSource);
        alpha = Api.signUp("alpha");
        beta = Api.signUp("beta");
        alphaKey = Api.createKey(alpha, "alpha ci");
        betaKey = Api.createKey(beta, "beta ci");
    }

    private Campaign store(Campaign campaign) {
        return campaigns.insert(campaign).await().indefinitely();
    }

    private Campaign minimal(long organizationId, long userId, long workflowId, String name, Instant createdAt) {
        return Campaign.create(organizationId, userId, name, workflowId, null, "campaigns/" + organizationId + "/min.csv",
                null, null, null, null, createdAt);
    }

    @Test
    void eachOrganizationListsOnlyItsOwnCampaignsNewestFirstWithEveryField() {
        long workflow = sql.workflow(alpha.organizationId(), "Appointment reminder");
        long telephony = sql.telephonyConfiguration(alpha.organizationId(), "Main Twilio");
        Campaign older = store(minimal(alpha.organizationId(), alpha.userId(), workflow, "Older", T0));
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("failure_rate", 0.8);
        details.put("window_seconds", 120);
        Campaign full = store(new Campaign(null, alpha.organizationId(), "Full", workflow, alpha.userId(), telephony, "csv",
                "campaigns/" + alpha.organizationId() + "/full.csv", CampaignState.PAUSED, 10, 4, 1,
                new RetryConfig(true, 3, 300, true, false, true), 5,
                new ScheduleConfig(true, ZoneId.of("Europe/Berlin"),
                        List.of(TimeSlot.of(0, "09:00", "12:30"), TimeSlot.of(4, "14:00", "18:00"))),
                new CircuitBreakerConfig(true, 0.25, 300, 10), older.id(), null,
                T0.plus(1, ChronoUnit.DAYS), T0.plus(1, ChronoUnit.DAYS).plusSeconds(60), null,
                List.of(new CampaignLogEntry(T0.plusSeconds(10), LogLevel.INFO, "state_changed", "Started", null),
                        new CampaignLogEntry(T0.plusSeconds(20), LogLevel.WARNING, "circuit_breaker_tripped",
                                "Failure rate 80% over 120s", details))));
        campaigns.appendLog(alpha.organizationId(), full.id(),
                new CampaignLogEntry(T0.plusSeconds(5), LogLevel.ERROR, "batch_failed", "Written last", Map.of("n", 1)))
                .await().indefinitely();
        sql.attempts(alpha.organizationId(), full.id(), "processed", 3);
        sql.attempts(alpha.organizationId(), full.id(), "queued", 2);
        long betaWorkflow = sql.workflow(beta.organizationId(), "Beta flow");
        Campaign betas = store(minimal(beta.organizationId(), beta.userId(), betaWorkflow, "Beta's", T0.plusSeconds(1)));

        JsonPath body = Api.asKey(alphaKey).get("/api/v1/campaign/").then().statusCode(200)
                .body("campaigns", hasSize(2)).extract().jsonPath();

        Map<String, Object> first = body.getMap("campaigns[0]");
        assertThat(first.keySet()).containsExactlyInAnyOrder("id", "name", "workflow_id", "workflow_name", "state",
                "source_type", "source_id", "total_rows", "processed_rows", "failed_rows", "created_at", "started_at",
                "completed_at", "retry_config", "max_concurrency", "schedule_config", "circuit_breaker", "executed_count",
                "total_queued_count", "parent_campaign_id", "redialed_campaign_id", "telephony_configuration_id",
                "telephony_configuration_name", "logs");
        assertThat(body.getLong("campaigns[0].id")).isEqualTo(full.id());
        assertThat(first).containsEntry("name", "Full").containsEntry("workflow_name", "Appointment reminder")
                .containsEntry("state", "paused").containsEntry("source_type", "csv")
                .containsEntry("source_id", "campaigns/" + alpha.organizationId() + "/full.csv")
                .containsEntry("total_rows", 10).containsEntry("processed_rows", 4).containsEntry("failed_rows", 1)
                .containsEntry("created_at", "2026-03-02T08:00:00Z").containsEntry("started_at", "2026-03-02T08:01:00Z")
                .containsEntry("completed_at", null).containsEntry("max_concurrency", 5)
                .containsEntry("executed_count", 3).containsEntry("total_queued_count", 5)
                .containsEntry("redialed_campaign_id", null).containsEntry("telephony_configuration_name", "Main Twilio");
        assertThat(body.getLong("campaigns[0].workflow_id")).isEqualTo(workflow);
        assertThat(body.getLong("campaigns[0].parent_campaign_id")).isEqualTo(older.id());
        assertThat(body.getLong("campaigns[0].telephony_configuration_id")).isEqualTo(telephony);
        assertThat(body.getMap("campaigns[0].retry_config")).isEqualTo(Map.of("enabled", true, "max_retries", 3,
                "retry_delay_seconds", 300, "retry_on_busy", true, "retry_on_no_answer", false, "retry_on_voicemail", true));
        assertThat(body.getMap("campaigns[0].schedule_config")).isEqualTo(Map.of("enabled", true,
                "timezone", "Europe/Berlin", "slots", List.of(
                        Map.of("day_of_week", 0, "start_time", "09:00", "end_time", "12:30"),
                        Map.of("day_of_week", 4, "start_time", "14:00", "end_time", "18:00"))));
        assertThat(body.getMap("campaigns[0].circuit_breaker")).isEqualTo(Map.of("enabled", true,
                "failure_threshold", 0.25f, "window_seconds", 300, "min_calls_in_window", 10));
        // logs in the order written (not by timestamp), details null when none
        assertThat(body.getList("campaigns[0].logs.event"))
                .containsExactly("state_changed", "circuit_breaker_tripped", "batch_failed");
        assertThat(body.getList("campaigns[0].logs.ts"))
                .containsExactly("2026-03-01T08:00:10Z", "2026-03-01T08:00:20Z", "2026-03-01T08:00:05Z");
        assertThat(body.getList("campaigns[0].logs.level")).containsExactly("info", "warning", "error");
        assertThat(body.getMap("campaigns[0].logs[0]")).containsEntry("details", null).containsEntry("message", "Started");
        assertThat(body.getMap("campaigns[0].logs[1].details"))
                .isEqualTo(Map.of("failure_rate", 0.8f, "window_seconds", 120));

        // the minimal campaign: nullable fields present as null, optional ones with the spec's defaults
        Map<String, Object> second = body.getMap("campaigns[1]");
        assertThat(body.getLong("campaigns[1].id")).isEqualTo(older.id());
        assertThat(second).containsEntry("total_rows", null).containsEntry("started_at", null)
                .containsEntry("completed_at", null).containsEntry("max_concurrency", null)
                .containsEntry("schedule_config", null).containsEntry("executed_count", 0)
                .containsEntry("total_queued_count", 0).containsEntry("parent_campaign_id", null)
                .containsEntry("telephony_configuration_id", null).containsEntry("telephony_configuration_name", null)
                .containsEntry("state", "created").containsEntry("processed_rows", 0).containsEntry("failed_rows", 0)
                .containsEntry("logs", List.of()).containsEntry("created_at", "2026-03-01T08:00:00Z");
        assertThat(body.getMap("campaigns[1].circuit_breaker")).isEqualTo(Map.of("enabled", false,
                "failure_threshold", 0.5f, "window_seconds", 120, "min_calls_in_window", 5));
        assertThat(body.getMap("campaigns[1].retry_config")).isEqualTo(Map.of("enabled", true, "max_retries", 1,
                "retry_delay_seconds", 120, "retry_on_busy", true, "retry_on_no_answer", true, "retry_on_voicemail", false));

        // beta sees only its own
        Api.asKey(betaKey).get("/api/v1/campaign/").then().statusCode(200)
                .body("campaigns", hasSize(1)).body("campaigns[0].name", equalTo("Beta's"))
                .body("campaigns[0].workflow_name", equalTo("Beta flow"));
        // and another organization's campaign is a 404 with the reference's detail
        Api.asKey(betaKey).get("/api/v1/campaign/" + full.id()).then().statusCode(404)
                .body("detail", equalTo("Campaign not found"));
        Api.asKey(alphaKey).get("/api/v1/campaign/" + betas.id()).then().statusCode(404)
                .body("detail", equalTo("Campaign not found"));
        Api.asKey(alphaKey).get("/api/v1/campaign/" + full.id()).then().statusCode(200)
                .body("name", equalTo("Full")).body("logs", hasSize(3)).body("executed_count", equalTo(3));
    }

    @Test
    void bothSpellingsAnswerDirectlyWithoutARedirect() {
        for (String path : List.of("/api/v1/campaign/", "/api/v1/campaign")) {
            given().redirects().follow(false).header("X-API-Key", alphaKey).get(path).then().statusCode(200)
                    .body("campaigns", hasSize(0));
        }
    }

    @Test
    void theListIsOneStatementWhateverTheNumberOfCampaigns() {
        assumeThat(sql.update("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")).isGreaterThanOrEqualTo(0);
        long workflow = sql.workflow(alpha.organizationId(), "wf");
        long betaWorkflow = sql.workflow(beta.organizationId(), "wf");
        store(minimal(alpha.organizationId(), alpha.userId(), workflow, "one", T0));
        for (int i = 0; i < 40; i++) {
            Campaign c = store(minimal(beta.organizationId(), beta.userId(), betaWorkflow, "c" + i, T0.plusSeconds(i)));
            campaigns.appendLog(beta.organizationId(), c.id(),
                    new CampaignLogEntry(T0, LogLevel.INFO, "e", "m", null)).await().indefinitely();
            sql.attempts(beta.organizationId(), c.id(), "processed", 1);
        }
        // warm up: the first use of each key writes last_used_at
        Api.asKey(alphaKey).get("/api/v1/campaign/").then().statusCode(200);
        Api.asKey(betaKey).get("/api/v1/campaign/").then().statusCode(200);

        long forOne = statementsDuring(() -> Api.asKey(alphaKey).get("/api/v1/campaign/").then().statusCode(200)
                .body("campaigns", hasSize(1)));
        long forForty = statementsDuring(() -> Api.asKey(betaKey).get("/api/v1/campaign/").then().statusCode(200)
                .body("campaigns", hasSize(40)));
        assertThat(forForty).isEqualTo(forOne);
        assertThat(forForty).isBetween(1L, 4L); // credential lookup + the campaign query (+ transaction control)
        assertThat(sql.queryLong("SELECT count(*) FROM pg_stat_statements WHERE query LIKE '%FROM campaigns c%'"))
                .isGreaterThanOrEqualTo(1);
    }

    /**
     * Statements run while the request runs. The dispatcher works in the same database meanwhile
     * (campaigns other tests left running): its marked statements are not counted, and of five
     * measurements the smallest is taken, since background work can only add to a count.
     */
    private long statementsDuring(Runnable request) {
        String count = "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat_statements%'"
                + " AND query NOT LIKE '/* background tick */%'"
                + " AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())";
        long fewest = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            sql.queryLong("SELECT count(*) FROM (SELECT pg_stat_statements_reset()) AS reset");
            long before = sql.queryLong(count);
            request.run();
            fewest = Math.min(fewest, sql.queryLong(count) - before);
        }
        return fewest;
    }

    @Test
    void anArchivedKeyIsRefusedOnTheNextCallAndWorksAgainAfterReactivation() {
        Api.asKey(alphaKey).get("/api/v1/campaign/").then().statusCode(200);
        long id = Api.keyId(alpha, alphaKey);
        Api.asKey(alphaKey).delete("/api/v1/user/api-keys/" + id).then().statusCode(200)
                .body("success", equalTo(true)).body("message", equalTo("API key archived successfully"));
        Api.asKey(alphaKey).get("/api/v1/campaign/").then().statusCode(401)
                .body("detail", equalTo("Invalid or expired API key"));
        given().header("authorization", "Bearer " + alpha.token()).put("/api/v1/user/api-keys/" + id + "/reactivate")
                .then().statusCode(200).body("message", equalTo("API key reactivated successfully"));
        Api.asKey(alphaKey).get("/api/v1/campaign/").then().statusCode(200);
    }

    @Test
    void missingOrGarbageCredentialsAre401WithADetail() {
        given().get("/api/v1/campaign/").then().statusCode(401).body("detail", equalTo("Authorization header required"));
        Api.asKey("garbage").get("/api/v1/campaign/").then().statusCode(401)
                .body("detail", equalTo("Invalid or expired API key"));
        Api.asKey("dgr_" + "A".repeat(43)).get("/api/v1/campaign/").then().statusCode(401)
                .body("detail", equalTo("Invalid or expired API key"));
        given().header("authorization", "Bearer not.a.jwt").get("/api/v1/campaign/").then().statusCode(401)
                .body("detail", equalTo("Invalid or expired token"));
        String[] parts = alpha.token().split("\\.");
        String tampered = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();
        given().header("authorization", tampered).get("/api/v1/campaign/").then().statusCode(401);
    }

    @Test
    void theApiKeyWinsOverTheAuthorizationHeader() {
        long workflow = sql.workflow(alpha.organizationId(), "wf");
        store(minimal(alpha.organizationId(), alpha.userId(), workflow, "alpha's only", T0));
        given().header("X-API-Key", alphaKey).header("authorization", "Bearer " + beta.token())
                .get("/api/v1/campaign/").then().statusCode(200)
                .body("campaigns.name", equalTo(List.of("alpha's only")));
        assertThat(Set.of(alpha.organizationId(), beta.organizationId())).hasSize(2);
    }

    /**
     * The list's counts come from tallies that triggers append on every change to calls and contacts
     * (V29), not from counting them: after inserts, updates of state and failure, deletes, and folds
     * running concurrently with the writers, the list still says what counting says.
     */
    @Test
    void theCountsFollowEveryChangeToCallsAndContactsAndSurviveConcurrentFolds() throws Exception {
        long workflow = sql.workflow(alpha.organizationId(), "Counted");
        Campaign first = store(minimal(alpha.organizationId(), alpha.userId(), workflow, "First", T0));
        Campaign second = store(minimal(alpha.organizationId(), alpha.userId(), workflow, "Second", T0.plusSeconds(1)));
        sql.attempts(alpha.organizationId(), first.id(), "processed", 6);
        sql.attempts(alpha.organizationId(), first.id(), "queued", 5);
        sql.attempts(alpha.organizationId(), second.id(), "queued", 4);
        assertCountsAreCounted(first.id(), 6, 11);
        assertCountsAreCounted(second.id(), 0, 4);

        // a failure reason set, a status update that changes no count, contacts leaving and re-entering the queue, a delete
        sql.update("UPDATE calls SET failure_reason = 'busy' WHERE id IN (SELECT id FROM calls WHERE campaign_id = ?"
                + " ORDER BY id LIMIT 2)", first.id());
        sql.update("UPDATE calls SET status = 'completed', updated_at = now() WHERE campaign_id = ?", first.id());
        sql.update("UPDATE campaign_contacts SET state = 'dialing' WHERE campaign_id = ? AND state = 'pending'", second.id());
        sql.update("UPDATE campaign_contacts SET state = 'waiting_retry' WHERE id IN (SELECT id FROM campaign_contacts"
                + " WHERE campaign_id = ? AND state = 'dialing' ORDER BY id LIMIT 3)", second.id());
        sql.update("DELETE FROM campaign_contacts WHERE id IN (SELECT id FROM campaign_contacts WHERE campaign_id = ?"
                + " AND state = 'pending' ORDER BY id LIMIT 1)", first.id());
        assertCountsAreCounted(first.id(), 4, 10);
        assertCountsAreCounted(second.id(), 0, 3);
        // a call moved to the other campaign (a row trigger, unlike the others)
        sql.update("UPDATE calls SET campaign_id = ? WHERE id = (SELECT id FROM calls WHERE campaign_id = ?"
                + " ORDER BY id DESC LIMIT 1)", second.id(), first.id());
        assertCountsAreCounted(first.id(), 3, 9);
        assertCountsAreCounted(second.id(), 1, 4);

        // writers and four folders at once: a fold never doubles nor loses a change
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            CompletableFuture<?> writer = CompletableFuture.runAsync(() -> IntStream.range(0, 40).forEach(i -> {
                sql.update("UPDATE campaign_contacts SET state = CASE state WHEN 'pending' THEN 'dialing' ELSE 'pending' END"
                        + " WHERE id IN (SELECT id FROM campaign_contacts WHERE campaign_id = ? ORDER BY id LIMIT ?)",
                        i % 2 == 0 ? first.id() : second.id(), 1 + i % 3);
                sql.update("UPDATE calls SET failure_reason = CASE WHEN failure_reason IS NULL THEN 'no_answer' END"
                        + " WHERE id = (SELECT id FROM calls WHERE campaign_id = ? ORDER BY id OFFSET ? LIMIT 1)",
                        first.id(), i % 6);
            }), pool);
            List<CompletableFuture<Integer>> folders = IntStream.range(0, 4).mapToObj(i -> CompletableFuture.supplyAsync(
                    () -> IntStream.range(0, 10).map(n -> tallies.fold().await().indefinitely()).sum(), pool)).toList();
            writer.get();
            for (CompletableFuture<Integer> folder : folders) {
                folder.get();
            }
        } finally {
            pool.shutdown();
        }
        assertCountsAreCounted(first.id(), counted(first.id(), true), counted(first.id(), false));
        assertCountsAreCounted(second.id(), counted(second.id(), true), counted(second.id(), false));

        assertThat(tallies.fold().await().indefinitely()).isBetween(0, 2);
        assertThat(sql.queryLong("SELECT count(*) FROM campaign_tallies WHERE campaign_id IN (?, ?) AND NOT folded",
                first.id(), second.id())).isZero();
        assertThat(sql.queryLong("SELECT count(*) FROM campaign_tallies WHERE campaign_id = ?", first.id())).isEqualTo(1);
        assertCountsAreCounted(first.id(), counted(first.id(), true), counted(first.id(), false));
    }

    /** executed_count (true) or total_queued_count (false), counted from the calls and contacts themselves. */
    private long counted(long campaignId, boolean executed) {
        return executed
                ? sql.queryLong("SELECT count(*) FROM calls WHERE campaign_id = ? AND failure_reason IS NULL", campaignId)
                : sql.queryLong("SELECT (SELECT count(*) FROM calls WHERE campaign_id = ?) + (SELECT count(*)"
                        + " FROM campaign_contacts WHERE campaign_id = ? AND state IN ('pending', 'waiting_retry'))",
                        campaignId, campaignId);
    }

    private void assertCountsAreCounted(long campaignId, long executed, long totalQueued) {
        assertThat(counted(campaignId, true)).as("executed, counted").isEqualTo(executed);
        assertThat(counted(campaignId, false)).as("total queued, counted").isEqualTo(totalQueued);
        JsonPath list = Api.asKey(alphaKey).get("/api/v1/campaign/").then().statusCode(200).extract().jsonPath();
        String at = "campaigns.find { it.id == " + campaignId + " }";
        assertThat(list.getLong(at + ".executed_count")).as("executed_count in the list").isEqualTo(executed);
        assertThat(list.getLong(at + ".total_queued_count")).as("total_queued_count in the list").isEqualTo(totalQueued);
        JsonPath one = Api.asKey(alphaKey).get("/api/v1/campaign/" + campaignId).then().statusCode(200).extract().jsonPath();
        assertThat(one.getLong("executed_count")).as("executed_count of the campaign").isEqualTo(executed);
        assertThat(one.getLong("total_queued_count")).as("total_queued_count of the campaign").isEqualTo(totalQueued);
    }
}
