package dev.voiceagent.adapters.postgres.campaign;

import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.domain.campaign.CampaignLogEntry;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

/** The campaign log, appended within the caller's transaction so an entry commits with the change it explains. */
public final class CampaignLogs {

    static final String INSERT = """
            INSERT INTO campaign_log_entries (organization_id, campaign_id, ts, level, event, message, details)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """;

    private CampaignLogs() {
    }

    public static Uni<Void> append(SqlClient client, long organizationId, long campaignId, CampaignLogEntry entry) {
        return client.preparedQuery(INSERT).execute(tuple(organizationId, campaignId, entry)).replaceWithVoid();
    }

    static Tuple tuple(long organizationId, long campaignId, CampaignLogEntry entry) {
        return Tuple.tuple().addLong(organizationId).addLong(campaignId).addOffsetDateTime(utc(entry.ts()))
                .addString(entry.level().wireName()).addString(entry.event()).addString(entry.message())
                .addValue(entry.details() == null ? null : new JsonObject(entry.details()));
    }
}
