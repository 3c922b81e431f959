package dev.voiceagent.adapters.postgres.telephony;

import dev.voiceagent.application.telephony.OutboundReadiness;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Outbound readiness from what the foundation schema knows: an active telephony configuration.
 * The telephony feature replaces this with the per-provider checklist (credentials, numbers).
 */
@ApplicationScoped
public class PostgresOutboundReadiness implements OutboundReadiness {

    static final String NONE = "No active telephony configuration: configure telephony first";

    private final Pool pool;

    public PostgresOutboundReadiness(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Optional<String>> blockedReason(long organizationId) {
        return pool.preparedQuery("SELECT count(*) FROM telephony_configurations WHERE organization_id = $1 AND is_active")
                .execute(Tuple.of(organizationId))
                .map(rows -> rows.iterator().next().getLong(0) > 0 ? Optional.<String>empty() : Optional.of(NONE));
    }
}
