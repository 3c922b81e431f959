package dev.voiceagent.adapters.postgres.telephony;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import dev.voiceagent.adapters.postgres.shared.Columns;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.Rows;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.shared.UniqueViolation;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.PhoneNumberView;
import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

@DatabaseAccess
@ApplicationScoped
public class PostgresPhoneNumberRepository implements PhoneNumberRepository {

    static final String TAKEN = "This phone number is already configured in your organization";
    private static final String COLUMNS = "id, organization_id, telephony_configuration_id, address, address_normalized,"
            + " country_code, label, inbound_workflow_id, is_active, is_default_caller_id, extra_metadata, created_at,"
            + " updated_at, telephony_trunk_id";
    private static final int ID = index(COLUMNS, "id");
    private static final int ORGANIZATION_ID = index(COLUMNS, "organization_id");
    private static final int TELEPHONY_CONFIGURATION_ID = index(COLUMNS, "telephony_configuration_id");
    private static final int ADDRESS = index(COLUMNS, "address");
    private static final int ADDRESS_NORMALIZED = index(COLUMNS, "address_normalized");
    private static final int COUNTRY_CODE = index(COLUMNS, "country_code");
    private static final int LABEL = index(COLUMNS, "label");
    private static final int INBOUND_WORKFLOW_ID = index(COLUMNS, "inbound_workflow_id");
    private static final int IS_ACTIVE = index(COLUMNS, "is_active");
    private static final int IS_DEFAULT_CALLER_ID = index(COLUMNS, "is_default_caller_id");
    private static final int EXTRA_METADATA = index(COLUMNS, "extra_metadata");
    private static final int CREATED_AT = index(COLUMNS, "created_at");
    private static final int UPDATED_AT = index(COLUMNS, "updated_at");
    private static final int TELEPHONY_TRUNK_ID = index(COLUMNS, "telephony_trunk_id");
    private static final int INBOUND_WORKFLOW_NAME = Columns.count(COLUMNS) + 0;
    /** The numbers in {@code n} with the name of their inbound workflow (same organization, by the composite key). */
    private static final String VIEW = """
            SELECT n.id, n.organization_id, n.telephony_configuration_id, n.address,
            n.address_normalized, n.country_code, n.label, n.inbound_workflow_id, n.is_active, n.is_default_caller_id,
            n.extra_metadata, n.created_at, n.updated_at, n.telephony_trunk_id, w.name FROM n LEFT JOIN workflows w
            ON w.organization_id = n.organization_id AND w.id = n.inbound_workflow_id""";

    private final Pool pool;

    public PostgresPhoneNumberRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<List<PhoneNumberView>> list(long organizationId, long configurationId) {
        return pool.preparedQuery("WITH n AS (SELECT " + COLUMNS + " FROM phone_numbers WHERE organization_id = $1"
                        + " AND telephony_configuration_id = $2) " + VIEW + " ORDER BY n.id")
                .execute(Tuple.of(organizationId, configurationId)).map(rows -> Rows.list(rows, PostgresPhoneNumberRepository::view));
    }

    @Override
    public Uni<List<PhoneNumberView>> listAll(long organizationId) {
        return pool.preparedQuery("WITH n AS (SELECT " + COLUMNS + " FROM phone_numbers WHERE organization_id = $1) "
                        + VIEW + " ORDER BY n.id")
                .execute(Tuple.of(organizationId)).map(rows -> Rows.list(rows, PostgresPhoneNumberRepository::view));
    }

    @Override
    public Uni<List<TelephonyNumber>> findActiveByNormalized(String normalized) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM phone_numbers WHERE address_normalized = $1 AND is_active"
                        + " ORDER BY id").execute(Tuple.of(normalized))
                .map(rows -> Rows.list(rows, PostgresPhoneNumberRepository::number));
    }

    @Override
    public Uni<Optional<PhoneNumberView>> find(long organizationId, long configurationId, long numberId) {
        return pool.preparedQuery("WITH n AS (SELECT " + COLUMNS + " FROM phone_numbers WHERE organization_id = $1"
                        + " AND telephony_configuration_id = $2 AND id = $3) " + VIEW)
                .execute(Tuple.of(organizationId, configurationId, numberId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(view(rows.iterator().next())));
    }

    @Override
    public Uni<PhoneNumberView> insert(TelephonyNumber n) {
        return pool.preparedQuery("""
                        WITH n AS (INSERT INTO phone_numbers (organization_id, telephony_configuration_id,
                        address, address_normalized, country_code, label, inbound_workflow_id, is_active,
                        is_default_caller_id, extra_metadata, telephony_trunk_id, created_at, updated_at)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                        RETURNING\s""" + COLUMNS + ") " + VIEW)
                .execute(values(n).addOffsetDateTime(n.createdAt().atOffset(ZoneOffset.UTC))
                        .addOffsetDateTime(n.updatedAt().atOffset(ZoneOffset.UTC)))
                .map(rows -> view(rows.iterator().next()))
                .onFailure(f -> UniqueViolation.of(f, "phone_numbers_address_key")).transform(f -> new ConflictException(TAKEN));
    }

    @Override
    public Uni<PhoneNumberView> update(TelephonyNumber n) {
        return pool.preparedQuery("""
                        WITH n AS (UPDATE phone_numbers SET country_code = $5, label = $6,
                        inbound_workflow_id = $7, is_active = $8, is_default_caller_id = $9, extra_metadata = $10,
                        telephony_trunk_id = $11, updated_at = $12 WHERE organization_id = $1
                        AND telephony_configuration_id = $2 AND id = $13 AND address = $3 AND address_normalized = $4
                        RETURNING\s""" + COLUMNS + ") " + VIEW)
                .execute(values(n).addOffsetDateTime(n.updatedAt().atOffset(ZoneOffset.UTC)).addLong(n.id()))
                .map(rows -> view(rows.iterator().next()));
    }

    @Override
    public Uni<Void> delete(long organizationId, long configurationId, long numberId) {
        return pool.preparedQuery("""
                DELETE FROM phone_numbers WHERE organization_id = $1 AND telephony_configuration_id = $2
                AND id = $3""").execute(Tuple.of(organizationId, configurationId, numberId)).replaceWithVoid();
    }

    @Override
    public Uni<Void> makeDefaultCaller(long organizationId, long configurationId, long numberId) {
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        UPDATE phone_numbers SET is_default_caller_id = false
                        WHERE organization_id = $1 AND telephony_configuration_id = $2 AND is_default_caller_id""")
                .execute(Tuple.of(organizationId, configurationId))
                .chain(() -> tx.preparedQuery("""
                        UPDATE phone_numbers SET is_default_caller_id = true, updated_at = now()
                        WHERE organization_id = $1 AND telephony_configuration_id = $2 AND id = $3""")
                        .execute(Tuple.of(organizationId, configurationId, numberId)))
                .replaceWithVoid());
    }

    private static Tuple values(TelephonyNumber n) {
        return Tuple.tuple().addLong(n.organizationId()).addLong(n.configurationId()).addString(n.address())
                .addString(n.normalized()).addString(n.countryCode()).addString(n.label()).addLong(n.inboundWorkflowId())
                .addBoolean(n.active()).addBoolean(n.defaultCaller()).addValue(JsonValues.toJson(n.extraMetadata()))
                .addLong(n.trunkId());
    }

    private static PhoneNumberView view(Row r) {
        return new PhoneNumberView(number(r), r.getString(INBOUND_WORKFLOW_NAME));
    }

    private static TelephonyNumber number(Row r) {
        return new TelephonyNumber(r.getLong(ID), r.getLong(ORGANIZATION_ID), r.getLong(TELEPHONY_CONFIGURATION_ID), r.getString(ADDRESS), r.getString(ADDRESS_NORMALIZED),
                r.getString(COUNTRY_CODE), r.getString(LABEL), r.getLong(INBOUND_WORKFLOW_ID), r.getLong(TELEPHONY_TRUNK_ID), r.getBoolean(IS_ACTIVE), r.getBoolean(IS_DEFAULT_CALLER_ID),
                JsonValues.toMap(r.getValue(EXTRA_METADATA)), r.getOffsetDateTime(CREATED_AT).toInstant(), r.getOffsetDateTime(UPDATED_AT).toInstant());
    }
}
