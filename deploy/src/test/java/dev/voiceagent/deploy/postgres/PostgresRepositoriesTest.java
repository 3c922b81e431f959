package dev.voiceagent.deploy.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.apikey.ApiKeyRepository;
import dev.voiceagent.application.auth.AccountRepository;
import dev.voiceagent.application.campaign.CampaignRepository;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import dev.voiceagent.domain.account.EmailAddress;
import dev.voiceagent.domain.account.Organization;
import dev.voiceagent.domain.account.User;
import dev.voiceagent.domain.apikey.ApiKey;
import dev.voiceagent.domain.apikey.ApiKeySecret;
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
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The Postgres adapters against a real PostgreSQL: round trips, organization scoping, constraints. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class PostgresRepositoriesTest {

    private static final Instant T0 = Instant.parse("2026-05-01T12:00:00.123456Z");

    @Inject
    AccountRepository accounts;

    @Inject
    ApiKeyRepository apiKeys;

    @Inject
    CampaignRepository campaigns;

    @Inject
    AgroalDataSource dataSource;

    private static User newUser() {
        return User.signUp(new EmailAddress("u-" + UUID.randomUUID() + "@x.io"), "U", "hash", T0, UUID.randomUUID());
    }

    @Test
    @RunOnVertxContext
    void accountsAndKeysRoundTripAndTheUniqueEmailIsAConflict(UniAsserter asserter) {
        User user = newUser();
        ApiKeySecret secret = ApiKeySecret.generate(new SecureRandom());
        asserter.assertThat(() -> accounts.createUserWithOrganization(user, Organization.forNewUser(user.providerId(), T0)),
                stored -> {
                    assertThat(stored.id()).isNotNull();
                    assertThat(stored.organizationId()).isNotNull();
                    assertThat(stored.email()).isEqualTo(user.email());
                });
        asserter.assertFailedWith(() -> {
            User twin = User.signUp(user.email(), null, "other", T0, UUID.randomUUID());
            return accounts.createUserWithOrganization(twin, Organization.forNewUser(twin.providerId(), T0));
        }, ConflictException.class);
        asserter.assertThat(() -> accounts.findUserByEmail(user.email()).chain(found -> {
            User stored = found.orElseThrow();
            return apiKeys.insert(ApiKey.issue(stored.organizationId(), stored.id(), "k", secret, T0));
        }), key -> {
            assertThat(key.id()).isNotNull();
            assertThat(key.createdAt()).isEqualTo(T0);
        });
        asserter.assertThat(() -> apiKeys.findUsableByHash(secret.hash()), found -> assertThat(found).isPresent());
        asserter.assertThat(() -> apiKeys.findUsableByHash(secret.hash())
                        .chain(found -> apiKeys.update(found.orElseThrow().archive(T0.plusSeconds(1))))
                        .chain(() -> apiKeys.findUsableByHash(secret.hash())),
                found -> assertThat(found).isEmpty());
    }

    @Test
    @RunOnVertxContext
    void recordingUseNeverMovesLastUsedBackwards(UniAsserter asserter) {
        User user = newUser();
        ApiKeySecret secret = ApiKeySecret.generate(new SecureRandom());
        asserter.assertThat(() -> accounts.createUserWithOrganization(user, Organization.forNewUser(user.providerId(), T0))
                        .chain(stored -> apiKeys.insert(ApiKey.issue(stored.organizationId(), stored.id(), "k", secret, T0)))
                        .call(key -> apiKeys.recordUse(key.id(), T0.plusSeconds(120)))
                        .call(key -> apiKeys.recordUse(key.id(), T0.plusSeconds(60)))
                        .chain(key -> apiKeys.findInOrganization(key.organizationId(), key.id())),
                found -> assertThat(found.orElseThrow().lastUsedAt()).isEqualTo(T0.plusSeconds(120)));
    }

    @Test
    void campaignsRoundTripWithTheirConfigurationsAndStayInTheirOrganization() {
        Sql sql = new Sql(dataSource);
        long org = sql.organization();
        long otherOrg = sql.organization();
        long workflow = sql.workflow(org, "wf");
        Campaign campaign = new Campaign(null, org, "Round trip", workflow, null, null, "csv", "campaigns/x.csv",
                CampaignState.RUNNING, 3, 2, 1, new RetryConfig(false, 0, 30, false, true, false), 100,
                new ScheduleConfig(false, ZoneId.of("America/New_York"), List.of(TimeSlot.of(2, "08:05", "20:55"))),
                new CircuitBreakerConfig(true, 1.0, 600, 100), null, null, T0, T0.plusSeconds(1), T0.plusSeconds(2),
                List.of(new CampaignLogEntry(T0, LogLevel.INFO, "a", "first", Map.of("nested", Map.of("k", "v")))));
        Campaign stored = campaigns.insert(campaign).await().indefinitely();
        Campaign read = campaigns.findView(org, stored.id()).await().indefinitely().orElseThrow().campaign();
        assertThat(read).usingRecursiveComparison().isEqualTo(stored);
        assertThat(campaigns.findView(otherOrg, stored.id()).await().indefinitely()).isEmpty();
        assertThat(campaigns.listViews(otherOrg).await().indefinitely()).isEmpty();
    }

    @Test
    void aCampaignCannotPointAtAnotherOrganizationsWorkflow() {
        Sql sql = new Sql(dataSource);
        long org = sql.organization();
        long otherOrg = sql.organization();
        long foreignWorkflow = sql.workflow(otherOrg, "not yours");
        Campaign campaign = Campaign.create(org, 1, "x", foreignWorkflow, null, "k", null, null, null, null, T0);
        assertThat(campaigns.insert(campaign).onItem().transform(c -> "stored").onFailure().recoverWithItem("refused")
                .await().indefinitely()).isEqualTo("refused");
        assertThat(sql.queryLong("SELECT count(*) FROM campaigns WHERE organization_id = ?", org)).isZero();
    }
}
