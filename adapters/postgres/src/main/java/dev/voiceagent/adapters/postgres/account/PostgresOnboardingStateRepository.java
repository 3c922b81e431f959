package dev.voiceagent.adapters.postgres.account;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.application.account.OnboardingStateRepository;
import dev.voiceagent.domain.account.OnboardingState;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** A user's onboarding as one JSON document; updates read and write it under the row's lock. */
@DatabaseAccess
@ApplicationScoped
public class PostgresOnboardingStateRepository implements OnboardingStateRepository {

    private final Pool pool;

    public PostgresOnboardingStateRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<OnboardingState> get(long userId) {
        return pool.preparedQuery("SELECT state FROM onboarding_states WHERE user_id = $1").execute(Tuple.of(userId))
                .map(rows -> rows.size() == 0 ? OnboardingState.NEW
                        : state(JsonValues.toMap(rows.iterator().next().getValue("state"))));
    }

    @Override
    public Uni<OnboardingState> update(long organizationId, long userId, UnaryOperator<OnboardingState> change) {
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        INSERT INTO onboarding_states (user_id, organization_id,
                        state) VALUES ($1, $2, '{}'::jsonb) ON CONFLICT (user_id) DO NOTHING""")
                .execute(Tuple.of(userId, organizationId))
                .chain(() -> tx.preparedQuery("SELECT state FROM onboarding_states WHERE user_id = $1 FOR UPDATE")
                        .execute(Tuple.of(userId)))
                .chain(rows -> {
                    OnboardingState updated = change.apply(state(JsonValues.toMap(rows.iterator().next().getValue("state"))));
                    return tx.preparedQuery("UPDATE onboarding_states SET state = $2, updated_at = now() WHERE user_id = $1")
                            .execute(Tuple.of(userId, json(updated))).replaceWith(updated);
                }));
    }

    @SuppressWarnings("unchecked")
    private static OnboardingState state(Map<String, Object> json) {
        if (json == null || json.isEmpty()) {
            return OnboardingState.NEW;
        }
        Object completed = json.get("completed_at");
        return new OnboardingState(completed == null ? null : Instant.parse((String) completed),
                Boolean.TRUE.equals(json.get("skipped")), (List<String>) json.getOrDefault("seen_tooltips", List.of()),
                (List<String>) json.getOrDefault("completed_actions", List.of()));
    }

    private static JsonObject json(OnboardingState s) {
        return new JsonObject().put("completed_at", s.completedAt() == null ? null : s.completedAt().toString())
                .put("skipped", s.skipped()).put("seen_tooltips", new JsonArray(s.seenTooltips()))
                .put("completed_actions", new JsonArray(s.completedActions()));
    }
}
