package dev.voiceagent.deploy.postgres;

import dev.voiceagent.application.campaign.AbstractDispatchLedgerTest;
import dev.voiceagent.application.campaign.CampaignRepository;
import dev.voiceagent.application.campaign.DispatchLedger;
import dev.voiceagent.application.webhook.WebhookEndpointRepository;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import dev.voiceagent.domain.calling.CallingHours;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.telephony.CallStatus;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The dispatch ledger's contract held against the Postgres adapter on a real PostgreSQL, with the background ticks off
 * so that only the test claims; the fixtures are written as the other adapters and the call reports write them.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@TestProfile(PostgresContractsTest.NoTicks.class)
class PostgresDispatchLedgerTest extends AbstractDispatchLedgerTest {

    @Inject
    DispatchLedger ledger;
    @Inject
    CampaignRepository campaigns;
    @Inject
    WebhookEndpointRepository endpoints;
    @Inject
    AgroalDataSource dataSource;

    /** Each organization's user, who creates its campaigns. */
    private final Map<Long, Long> users = new HashMap<>();

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(Duration.ofSeconds(20));
    }

    private Sql sql() {
        return new Sql(dataSource);
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    private static int minute(LocalTime time, boolean end) {
        return end && time.equals(LocalTime.MIDNIGHT) ? 1440 : time.toSecondOfDay() / 60;
    }

    @Override
    protected DispatchLedger ledger() {
        return ledger;
    }

    @Override
    protected Org organization() {
        Sql sql = sql();
        long org = sql.organization();
        users.put(org, sql.insertReturningId("INSERT INTO users (email, provider_id, selected_organization_id)"
                + " VALUES (?, ?, ?)", "u-" + org + "@ledger.example", "ledger-user-" + org, org));
        long workflow = sql.workflow(org, "Agent");
        long definition = sql.insertReturningId("INSERT INTO workflow_definitions (organization_id, workflow_id,"
                + " version_number, status, workflow_json) VALUES (?, ?, 1, 'published', '{}')", org, workflow);
        long configuration = sql.telephonyConfiguration(org, "Sim");
        // every event: the ledger's events are the webhook deliveries its writes enqueue
        await(endpoints.create(org, "https://crm.example.com/hooks", null, List.of(), true,
                "whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0"));
        return new Org(org, workflow, definition, configuration);
    }

    private Campaign created(Org org) {
        return await(campaigns.insert(Campaign.create(org.id(), users.get(org.id()), "Promo", org.workflowId(),
                org.configurationId(), "campaigns/" + org.id() + "/x.csv", null, 5, null, null, NOW)));
    }

    @Override
    protected Campaign runningCampaign(Org org) {
        Campaign created = created(org);
        Campaign syncing = created.start(NOW).campaign();
        await(campaigns.applyTransition(created, created.start(NOW)));
        await(campaigns.applyTransition(syncing, syncing.contactsLoaded(3, NOW)));
        return await(campaigns.findView(org.id(), created.id())).orElseThrow().campaign();
    }

    @Override
    protected Campaign importingCampaign(Org org) {
        Campaign created = created(org);
        await(campaigns.applyTransition(created, created.start(NOW)));
        return await(campaigns.findView(org.id(), created.id())).orElseThrow().campaign();
    }

    @Override
    protected long contact(Campaign campaign, int row, Instant due) {
        return sql().insertReturningId("INSERT INTO campaign_contacts (organization_id, campaign_id, row_number,"
                + " phone_number, next_attempt_at) VALUES (?, ?, ?, ?, ?)", campaign.organizationId(), campaign.id(),
                row, phone(row), utc(due));
    }

    @Override
    protected long waitingContact(Campaign campaign, int row, Instant due, int attempts, String outcome) {
        return sql().insertReturningId("INSERT INTO campaign_contacts (organization_id, campaign_id, row_number,"
                + " phone_number, next_attempt_at, state, attempts, last_outcome) VALUES (?, ?, ?, ?, ?,"
                + " 'waiting_retry', ?, ?)", campaign.organizationId(), campaign.id(), row, phone(row), utc(due),
                attempts, outcome);
    }

    @Override
    protected void doNotCall(Org org, String phoneNumber) {
        sql().update("INSERT INTO dnc_numbers (organization_id, phone_number, source) VALUES (?, ?, 'manual')",
                org.id(), phoneNumber);
    }

    @Override
    protected void organizationHours(Org org, CallingHours hours) {
        sql().update("UPDATE organizations SET calling_hours_start_minute = ?, calling_hours_end_minute = ?"
                + " WHERE id = ?", minute(hours.start(), false), minute(hours.end(), true), org.id());
    }

    @Override
    protected void campaignHours(Campaign campaign, CallingHours hours) {
        sql().update("INSERT INTO campaign_calling_hours (campaign_id, organization_id, start_minute, end_minute)"
                + " VALUES (?, ?, ?, ?)", campaign.id(), campaign.organizationId(), minute(hours.start(), false),
                minute(hours.end(), true));
    }

    @Override
    protected String contactState(long contact) {
        return sql().queryString("SELECT state FROM campaign_contacts WHERE id = ?", contact);
    }

    @Override
    protected int contactAttempts(long contact) {
        return (int) sql().queryLong("SELECT attempts FROM campaign_contacts WHERE id = ?", contact);
    }

    @Override
    protected long singleCall(Org org, Instant startedAt) {
        Sql sql = sql();
        long run = sql.insertReturningId("INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name,"
                + " mode) VALUES (?, ?, ?, 'WR-TEL-OUT-1', 'simulator')", org.id(), org.workflowId(),
                org.definitionId());
        return sql.insertReturningId("INSERT INTO calls (organization_id, workflow_run_id, provider, status, to_number,"
                + " started_at) VALUES (?, ?, 'simulator', 'initiated', '+14155550199', ?)", org.id(), run,
                utc(startedAt));
    }

    @Override
    protected void endCall(long callId, CallStatus status, Instant endedAt, String failureReason) {
        sql().update("UPDATE calls SET status = ?, ended_at = ?, failure_reason = ? WHERE id = ?", status.wireName(),
                utc(endedAt), failureReason, callId);
    }

    @Override
    protected List<String> eventTypes(Org org) {
        String types = sql().queryString("SELECT string_agg(event_type, ',' ORDER BY id) FROM webhook_deliveries"
                + " WHERE organization_id = ?", org.id());
        return types == null ? List.of() : List.of(types.split(","));
    }
}
