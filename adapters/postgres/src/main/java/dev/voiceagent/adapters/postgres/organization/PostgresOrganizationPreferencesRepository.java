package dev.voiceagent.adapters.postgres.organization;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.application.organization.OrganizationPreferencesRepository;
import dev.voiceagent.domain.account.OrganizationPreferences;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

@DatabaseAccess
@ApplicationScoped
public class PostgresOrganizationPreferencesRepository implements OrganizationPreferencesRepository {

    private final Pool pool;

    public PostgresOrganizationPreferencesRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<OrganizationPreferences> get(long organizationId) {
        return pool.preparedQuery("SELECT preferences FROM organizations WHERE id = $1").execute(Tuple.of(organizationId))
                .map(rows -> rows.size() == 0 ? OrganizationPreferences.NONE
                        : preferences((JsonObject) rows.iterator().next().getValue("preferences")));
    }

    @Override
    public Uni<OrganizationPreferences> put(long organizationId, OrganizationPreferences p) {
        JsonObject json = new JsonObject().put("test_phone_number", p.testPhoneNumber()).put("timezone", p.timezone())
                .put("external_pbx_integrations_enabled", p.externalPbxIntegrationsEnabled());
        return pool.preparedQuery("UPDATE organizations SET preferences = $1 WHERE id = $2")
                .execute(Tuple.of(json, organizationId)).replaceWith(p);
    }

    private static OrganizationPreferences preferences(JsonObject json) {
        if (json == null) {
            return OrganizationPreferences.NONE;
        }
        return new OrganizationPreferences(json.getString("test_phone_number"), json.getString("timezone"),
                json.getBoolean("external_pbx_integrations_enabled", false));
    }
}
