package dev.voiceagent.deploy.support;

import io.agroal.api.AgroalDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

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

    public long workflow(long organizationId, String name) {
        return insertReturningId("INSERT INTO workflows (organization_id, name) VALUES (?, ?)", organizationId, name);
    }

    public long telephonyConfiguration(long organizationId, String name) {
        return insertReturningId("INSERT INTO telephony_configurations (organization_id, name, provider) VALUES (?, ?, 'twilio')",
                organizationId, name);
    }

    public long organization() {
        return insertReturningId("INSERT INTO organizations (provider_id) VALUES (?)", "org-" + java.util.UUID.randomUUID());
    }

    public void attempts(long organizationId, long campaignId, String state, int count) {
        for (int i = 0; i < count; i++) {
            update("INSERT INTO call_attempts (organization_id, campaign_id, state) VALUES (?, ?, ?)", organizationId,
                    campaignId, state);
        }
    }

    private static void bind(PreparedStatement ps, Object[] args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            ps.setObject(i + 1, args[i]);
        }
    }
}
