package dev.voiceagent.deploy;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The migration Job's mode ({@code VOICEAGENT_MIGRATE_ONLY=true}, deploy/k8s/migrate-job.yaml): Flyway
 * has applied the migrations during start-up (quarkus.flyway.migrate-at-start), so the process exits
 * with status 0 as soon as start-up completes. The Job runs this before a rollout; the replicas then
 * start with {@code VOICEAGENT_MIGRATE_AT_START=false} and skip Flyway (and its validation) entirely.
 * A failed migration fails start-up, so the Job's pod exits non-zero and the rollout does not begin, and so
 * does a Job told not to migrate at start (it would otherwise report a migration it never ran).
 */
@ApplicationScoped
public class MigrateOnly {

    private static final Logger LOG = Logger.getLogger(MigrateOnly.class);

    private final boolean migrateOnly;
    private final boolean migrateAtStart;

    public MigrateOnly(VoiceAgentConfig config,
            @ConfigProperty(name = "quarkus.flyway.migrate-at-start", defaultValue = "false") boolean migrateAtStart) {
        this.migrateOnly = config.migrateOnly();
        this.migrateAtStart = migrateAtStart;
    }

    void onStart(@Observes StartupEvent started) {
        if (migrateOnly && !migrateAtStart) {
            LOG.error("migrate-only: nothing was migrated, as VOICEAGENT_MIGRATE_AT_START (quarkus.flyway.migrate-at-start)"
                    + " is false; the migration Job needs it true");
            Quarkus.asyncExit(1);
        } else if (migrateOnly) {
            LOG.info("migrate-only: the schema is migrated; exiting");
            Quarkus.asyncExit(0);
        }
    }
}
