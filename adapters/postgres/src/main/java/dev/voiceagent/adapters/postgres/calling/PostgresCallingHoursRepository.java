package dev.voiceagent.adapters.postgres.calling;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.application.calling.CallingHoursRepository;
import dev.voiceagent.domain.calling.CallingHours;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalTime;
import java.util.Optional;

/** Hours are stored as minutes of the day, 0..1440 (the end 1440 is 24:00). */
@DatabaseAccess
@ApplicationScoped
public class PostgresCallingHoursRepository implements CallingHoursRepository {

    private final Pool pool;

    public PostgresCallingHoursRepository(Pool pool) {
        this.pool = pool;
    }

    /** The hours of two stored minutes, or null when they are not set. */
    public static CallingHours hours(Integer startMinute, Integer endMinute) {
        if (startMinute == null || endMinute == null) {
            return null;
        }
        return new CallingHours(LocalTime.ofSecondOfDay(startMinute * 60L),
                endMinute >= 1440 ? LocalTime.MIDNIGHT : LocalTime.ofSecondOfDay(endMinute * 60L));
    }

    static int startMinute(CallingHours h) {
        return h.start().getHour() * 60 + h.start().getMinute();
    }

    static int endMinute(CallingHours h) {
        return h.end().equals(LocalTime.MIDNIGHT) ? 1440 : h.end().getHour() * 60 + h.end().getMinute();
    }

    @Override
    public Uni<Optional<CallingHours>> organization(long organizationId) {
        return pool.preparedQuery("""
                        SELECT calling_hours_start_minute, calling_hours_end_minute FROM organizations
                        WHERE id = $1""").execute(Tuple.of(organizationId))
                .map(rows -> {
                    if (rows.size() == 0) {
                        return Optional.empty();
                    }
                    Row r = rows.iterator().next();
                    return Optional.ofNullable(hours(r.getInteger("calling_hours_start_minute"),
                            r.getInteger("calling_hours_end_minute")));
                });
    }

    @Override
    public Uni<Void> setOrganization(long organizationId, CallingHours hours) {
        return pool.preparedQuery("""
                        UPDATE organizations SET calling_hours_start_minute = $2,
                        calling_hours_end_minute = $3 WHERE id = $1""")
                .execute(Tuple.of(organizationId, startMinute(hours), endMinute(hours))).replaceWithVoid();
    }

    @Override
    public Uni<Optional<CampaignHours>> campaign(long organizationId, long campaignId) {
        return pool.preparedQuery("""
                        SELECT start_minute, end_minute, override_reason FROM campaign_calling_hours
                        WHERE organization_id = $1 AND campaign_id = $2""").execute(Tuple.of(organizationId, campaignId))
                .map(rows -> {
                    if (rows.size() == 0) {
                        return Optional.empty();
                    }
                    Row r = rows.iterator().next();
                    return Optional.of(new CampaignHours(hours(r.getInteger("start_minute"), r.getInteger("end_minute")),
                            r.getString("override_reason")));
                });
    }

    @Override
    public Uni<Void> setCampaign(long organizationId, long campaignId, CampaignHours hours) {
        return pool.preparedQuery("""
                        INSERT INTO campaign_calling_hours (campaign_id, organization_id, start_minute,
                        end_minute, override_reason) VALUES ($2, $1, $3, $4, $5) ON CONFLICT (campaign_id) DO UPDATE
                        SET start_minute = EXCLUDED.start_minute, end_minute = EXCLUDED.end_minute,
                        override_reason = EXCLUDED.override_reason, updated_at = now()""")
                .execute(Tuple.of(organizationId, campaignId, startMinute(hours.hours()), endMinute(hours.hours()),
                        hours.overrideReason()))
                .replaceWithVoid();
    }

    @Override
    public Uni<Boolean> clearCampaign(long organizationId, long campaignId) {
        return pool.preparedQuery("DELETE FROM campaign_calling_hours WHERE organization_id = $1 AND campaign_id = $2")
                .execute(Tuple.of(organizationId, campaignId)).map(rows -> rows.rowCount() > 0);
    }
}
