package dev.voiceagent.adapters.postgres.telephony;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.Rows;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;

import dev.voiceagent.adapters.postgres.shared.CredentialCipher;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.shared.UniqueViolation;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfigurations;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Configurations with their credentials sealed by AES-256-GCM (bound to the organization). */
@DatabaseAccess
@ApplicationScoped
public class PostgresTelephonyConfigurationRepository implements TelephonyConfigurationRepository {

    static final String NAME_TAKEN = "A telephony configuration with this name already exists";
    private static final String SELECT = """
            SELECT c.id, c.organization_id, c.name, c.provider, c.credentials,
            c.is_default_outbound, c.is_active, c.inactive_since, c.inactive_reason, c.created_at, c.updated_at,
            (SELECT count(*) FROM phone_numbers n WHERE n.organization_id = c.organization_id
            AND n.telephony_configuration_id = c.id AND n.is_active) AS active_numbers
            FROM telephony_configurations c WHERE c.organization_id = $1 AND c.credentials IS NOT NULL""";

    private final Pool pool;
    private final CredentialCipher cipher;

    public PostgresTelephonyConfigurationRepository(Pool pool, CredentialCipher cipher) {
        this.pool = pool;
        this.cipher = cipher;
    }

    private static String owner(long organizationId) {
        return "organization:" + organizationId;
    }

    @Override
    public Uni<Boolean> exists(long organizationId) {
        return pool.preparedQuery("""
                        SELECT EXISTS (SELECT 1 FROM telephony_configurations WHERE organization_id = $1)
                        AS configured""").execute(Tuple.of(organizationId))
                .map(rows -> rows.iterator().next().getBoolean("configured"));
    }

    @Override
    public Uni<List<TelephonyConfigurationView>> list(long organizationId) {
        return pool.preparedQuery(SELECT + " ORDER BY c.created_at, c.id").execute(Tuple.of(organizationId))
                .map(rows -> Rows.list(rows, this::view));
    }

    @Override
    public Uni<Optional<TelephonyConfigurationView>> find(long organizationId, long configurationId) {
        return pool.preparedQuery(SELECT + " AND c.id = $2").execute(Tuple.of(organizationId, configurationId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(view(rows.iterator().next())));
    }

    @Override
    public Uni<TelephonyConfiguration> insert(TelephonyConfiguration c) {
        long org = c.organizationId();
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        SELECT count(*) AS defaults FROM telephony_configurations
                        WHERE organization_id = $1 AND is_default_outbound""").execute(Tuple.of(org))
                .chain(rows -> {
                    boolean makeDefault = c.defaultOutbound() || rows.iterator().next().getLong("defaults") == 0;
                    Uni<Void> demoted = makeDefault ? demote(tx, org) : Uni.createFrom().voidItem();
                    return demoted.chain(() -> tx.preparedQuery("""
                                    INSERT INTO telephony_configurations (organization_id,
                                    name, provider, credentials, is_default_outbound, is_active, created_at, updated_at)
                                    VALUES ($1, $2, $3, $4, $5, true, $6, $6) RETURNING id""")
                            .execute(Tuple.tuple().addLong(org).addString(c.name()).addString(c.provider().wireName())
                                    .addString(seal(c)).addBoolean(makeDefault).addOffsetDateTime(utc(c.createdAt()))))
                            .map(inserted -> new TelephonyConfiguration(inserted.iterator().next().getLong("id"), org,
                                    c.name(), c.configuration(), makeDefault, true, null, null, c.createdAt(),
                                    c.updatedAt()));
                }))
                .onFailure(f -> UniqueViolation.of(f, "telephony_configurations_name_key"))
                .transform(f -> new ConflictException(NAME_TAKEN));
    }

    @Override
    public Uni<TelephonyConfiguration> update(TelephonyConfiguration c) {
        return pool.preparedQuery("""
                        UPDATE telephony_configurations SET name = $1, credentials = $2, is_active = $3,
                        inactive_since = $4, inactive_reason = $5, updated_at = $6 WHERE organization_id = $7 AND id = $8""")
                .execute(Tuple.tuple().addString(c.name()).addString(seal(c)).addBoolean(c.active())
                        .addOffsetDateTime(utc(c.inactiveSince())).addString(c.inactiveReason())
                        .addOffsetDateTime(utc(c.updatedAt())).addLong(c.organizationId()).addLong(c.id()))
                .replaceWith(c)
                .onFailure(f -> UniqueViolation.of(f, "telephony_configurations_name_key"))
                .transform(f -> new ConflictException(NAME_TAKEN));
    }

    @Override
    public Uni<Void> delete(long organizationId, long configurationId) {
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        SELECT count(*) AS campaigns FROM campaigns
                        WHERE organization_id = $1 AND telephony_configuration_id = $2""")
                .execute(Tuple.of(organizationId, configurationId))
                .chain(rows -> {
                    long campaigns = rows.iterator().next().getLong("campaigns");
                    if (campaigns > 0) {
                        throw new ConflictException("The configuration is used by " + campaigns
                                + " campaign(s) and cannot be deleted");
                    }
                    return tx.preparedQuery("""
                            DELETE FROM telephony_configurations WHERE organization_id = $1 AND id = $2
                            RETURNING is_default_outbound""").execute(Tuple.of(organizationId, configurationId));
                })
                .chain(deleted -> deleted.size() > 0 && deleted.iterator().next().getBoolean("is_default_outbound")
                        ? tx.preparedQuery("""
                                UPDATE telephony_configurations SET is_default_outbound = true WHERE id =
                                (SELECT id FROM telephony_configurations WHERE organization_id = $1 AND is_active
                                AND credentials IS NOT NULL ORDER BY created_at, id LIMIT 1)""")
                                .execute(Tuple.of(organizationId)).replaceWithVoid()
                        : Uni.createFrom().voidItem()));
    }

    @Override
    public Uni<Void> makeDefaultOutbound(long organizationId, long configurationId) {
        return pool.withTransaction(tx -> demote(tx, organizationId)
                .chain(() -> tx.preparedQuery("""
                        UPDATE telephony_configurations SET is_default_outbound = true,
                        updated_at = now() WHERE organization_id = $1 AND id = $2""")
                        .execute(Tuple.of(organizationId, configurationId))).replaceWithVoid());
    }

    private static Uni<Void> demote(SqlClient tx, long organizationId) {
        return tx.preparedQuery("""
                UPDATE telephony_configurations SET is_default_outbound = false
                WHERE organization_id = $1 AND is_default_outbound""").execute(Tuple.of(organizationId)).replaceWithVoid();
    }

    @Override
    public Uni<List<TelephonyConfiguration>> activeOf(Provider provider) {
        return pool.preparedQuery("""
                        SELECT c.id, c.organization_id, c.name, c.provider, c.credentials,
                        c.is_default_outbound, c.is_active, c.inactive_since, c.inactive_reason, c.created_at,
                        c.updated_at, 0::bigint AS active_numbers FROM telephony_configurations c
                        WHERE c.provider = $1 AND c.is_active AND c.credentials IS NOT NULL ORDER BY c.created_at, c.id""")
                .execute(Tuple.of(provider.wireName()))
                .map(rows -> Rows.list(rows, r -> view(r).configuration()));
    }

    @Override
    public Uni<List<String>> dispositionCodesSeen(long organizationId) {
        return pool.preparedQuery("""
                        SELECT DISTINCT gathered_context->>'mapped_call_disposition' AS code FROM workflow_runs
                        WHERE organization_id = $1 AND gathered_context ? 'mapped_call_disposition'""")
                .execute(Tuple.of(organizationId)).map(rows -> {
                    List<String> codes = new ArrayList<>();
                    rows.forEach(r -> codes.add(r.getString("code")));
                    return codes;
                });
    }

    private String seal(TelephonyConfiguration c) {
        return cipher.seal(new JsonObject(c.configuration().fields()).encode(), owner(c.organizationId()));
    }

    private TelephonyConfigurationView view(Row r) {
        long org = r.getLong("organization_id");
        String wireName = r.getString("provider");
        Provider provider = Provider.fromWireName(wireName).orElseThrow(
                () -> new IllegalStateException("unknown provider " + wireName));
        var fields = JsonValues.toMap(new JsonObject(cipher.open(r.getString("credentials"), owner(org))));
        TelephonyConfiguration configuration = new TelephonyConfiguration(r.getLong("id"), org, r.getString("name"),
                ProviderConfigurations.parse(provider, fields), r.getBoolean("is_default_outbound"),
                r.getBoolean("is_active"), instant(r.getOffsetDateTime("inactive_since")),
                r.getString("inactive_reason"), instant(r.getOffsetDateTime("created_at")),
                instant(r.getOffsetDateTime("updated_at")));
        return TelephonyConfigurationView.of(configuration, r.getLong("active_numbers").intValue());
    }

}
