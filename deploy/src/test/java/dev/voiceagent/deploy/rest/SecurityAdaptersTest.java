package dev.voiceagent.deploy.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.auth.PasswordHasher;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class SecurityAdaptersTest {

    @Inject
    PasswordHasher hasher;

    @Inject
    AgroalDataSource dataSource;

    @Test
    @RunOnVertxContext
    void bcryptHashesAndChecksAndComesBackOnTheCallersEventLoop(UniAsserter asserter) {
        asserter.assertThat(() -> {
            Context caller = Vertx.currentContext();
            return hasher.hash("correct-horse-battery").invoke(hash -> {
                assertThat(Context.isOnEventLoopThread()).isTrue();
                assertThat(Vertx.currentContext()).isSameAs(caller);
            });
        }, hash -> assertThat(hash).startsWith("$2a$").hasSize(60));
        asserter.assertThat(() -> hasher.hash("correct-horse-battery").chain(h -> hasher.matches("correct-horse-battery", h)),
                ok -> assertThat(ok).isTrue());
        asserter.assertThat(() -> hasher.hash("correct-horse-battery").chain(h -> hasher.matches("wrong", h)),
                ok -> assertThat(ok).isFalse());
        asserter.assertThat(() -> hasher.matches("anything", null), ok -> assertThat(ok).isFalse());
        asserter.assertThat(() -> hasher.matches("anything", "not-a-bcrypt-hash"), ok -> assertThat(ok).isFalse());
    }

    @Test
    void withoutAConfiguredSecretTheSigningSecretIsGeneratedOnceAndKept() {
        Sql sql = new Sql(dataSource);
        assertThat(sql.queryLong("SELECT count(*) FROM instance_secrets WHERE name = 'jwt_signing_secret'")).isEqualTo(1);
        assertThat(sql.queryLong("SELECT length(value) FROM instance_secrets WHERE name = 'jwt_signing_secret'"))
                .isGreaterThanOrEqualTo(43);
    }
}
