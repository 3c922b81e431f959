package dev.voiceagent.deploy.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** An embedded PostgreSQL of its own that a test may stop or shut down (the outage tests); never an external one. */
public class StoppablePostgresResource extends EmbeddedPostgresResource {

    private static volatile StoppablePostgresResource current;
    private static volatile Connection holding;

    @Override
    public Map<String, String> start() {
        Map<String, String> config = super.start();
        if (postgres == null) {
            throw new IllegalStateException("the outage tests need the embedded PostgreSQL (TEST_DB_URL is set)");
        }
        current = this;
        return config;
    }

    /** Stops the database under the running application. */
    public static void stopDatabase() {
        try {
            current.postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Puts the database in the middle of a shutdown and keeps it there: a smart shutdown (the postmaster's SIGTERM),
     * which refuses every new connection with 57P03 "the database system is shutting down" and waits for the sessions
     * still open, of which this test keeps one; the application's own sessions are then terminated
     * (pg_terminate_backend, 57P01 to each), so that everything it does next needs a connection it cannot have.
     * Returns once the server refuses connections and none of the application's is left. {@link #finishShutdown}
     * lets the server go.
     */
    public static void beginShutdown() {
        try {
            holding = connect();
            long postmaster;
            try (Statement s = holding.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                postmaster = ProcessHandle.of(rs.getLong(1)).flatMap(ProcessHandle::parent)
                        .orElseThrow(() -> new IllegalStateException("no postmaster above this backend")).pid();
            }
            if (!ProcessHandle.of(postmaster).orElseThrow().destroy()) { // SIGTERM: a smart shutdown
                throw new IllegalStateException("could not signal the postmaster " + postmaster);
            }
            await("new connections refused with 57P03", () -> {
                try (Connection refused = connect()) {
                    return false;
                } catch (SQLException e) {
                    return "57P03".equals(e.getSQLState());
                }
            });
            try (Statement s = holding.createStatement()) {
                s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        + " WHERE pid <> pg_backend_pid() AND datname = current_database()"
                        + " AND backend_type = 'client backend'");
            }
            await("the application's sessions gone", () -> {
                try (Statement s = holding.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*)"
                        + " FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = current_database()"
                        + " AND backend_type = 'client backend'")) {
                    rs.next();
                    return rs.getLong(1) == 0;
                }
            });
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Closes the session {@link #beginShutdown} kept open: the smart shutdown then completes. */
    public static void finishShutdown() {
        try {
            if (holding != null) {
                holding.close();
            }
        } catch (SQLException ignored) {
            // the server is going anyway
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://localhost:" + current.postgres.getPort() + "/postgres",
                "postgres", "postgres");
    }

    private interface Condition {
        boolean holds() throws SQLException;
    }

    private static void await(String what, Condition condition) throws SQLException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (!condition.holds()) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("not within 10 s: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
