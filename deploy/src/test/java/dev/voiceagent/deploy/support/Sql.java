package dev.voiceagent.deploy.support;

import io.agroal.api.AgroalDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;

/** Plain JDBC for test fixtures of tables whose features come later (workflows, telephony, attempts). */
public final class Sql {

    private final AgroalDataSource dataSource;

    public Sql(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    public long insertReturningId(String sql, Object... args) {
        return queryLong(sql + " RETURNING id", args);
    }

    public int update(String sql, Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public long queryLong(String sql, Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first column of the first row as text; null when there is no row. */
    public String queryString(String sql, Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public long workflow(long organizationId, String name) {
        return insertReturningId("INSERT INTO workflows (organization_id, name) VALUES (?, ?)", organizationId, name);
    }

    public long telephonyConfiguration(long organizationId, String name) {
        return insertReturningId("INSERT INTO telephony_configurations (organization_id, name, provider) VALUES (?, ?, 'twilio')",
                organizationId, name);
    }

    public long organization() {
        return insertReturningId("INSERT INTO organizations (provider_id) VALUES (?)", "org-" + UUID.randomUUID());
    }

    /**
     * Dispatch history for list counts: a "processed" attempt is a finished contact with its placed
     * call in the ledger; a "queued" one is a contact still waiting to be dialed.
     */
    public void attempts(long organizationId, long campaignId, String state, int count) {
        long workflow = queryLong("SELECT workflow_id FROM campaigns WHERE id = ?", campaignId);
        for (int i = 0; i < count; i++) {
            long row = queryLong("SELECT count(*) + 2 FROM campaign_contacts WHERE campaign_id = ?", campaignId);
            boolean processed = state.equals("processed");
            long contact = insertReturningId("INSERT INTO campaign_contacts (organization_id, campaign_id, row_number,"
                    + " phone_number, state, attempts, last_outcome) VALUES (?, ?, ?, ?, ?, ?, ?)", organizationId,
                    campaignId, (int) row, "+1415555" + String.format("%04d", row), processed ? "done" : "pending",
                    processed ? 1 : 0, processed ? "completed" : null);
            if (processed) {
                long definition = queryLong("SELECT id FROM workflow_definitions WHERE workflow_id = ?"
                        + " UNION ALL SELECT -1 ORDER BY 1 DESC LIMIT 1", workflow);
                if (definition < 0) {
                    definition = insertReturningId("INSERT INTO workflow_definitions (organization_id, workflow_id,"
                            + " version_number, status, workflow_json) VALUES (?, ?, 1, 'published', '{}')",
                            organizationId, workflow);
                }
                long run = insertReturningId("INSERT INTO workflow_runs (organization_id, workflow_id, definition_id,"
                        + " name, mode, campaign_id) VALUES (?, ?, ?, 'r', 'simulator', ?)", organizationId, workflow,
                        definition, campaignId);
                update("INSERT INTO calls (organization_id, workflow_run_id, provider, status, to_number, started_at,"
                        + " ended_at, campaign_id, contact_id, attempt_number) VALUES (?, ?, 'simulator', 'completed',"
                        + " '+14155550000', now(), now(), ?, ?, 1)", organizationId, run, campaignId, contact);
            }
        }
    }

    private static void bind(PreparedStatement ps, Object[] args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            ps.setObject(i + 1, args[i]);
        }
    }
}
