package dev.voiceagent.deploy.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A fresh PostgreSQL cluster of Debian's postgresql-15 (initdb into a temporary directory, a free port, trust
 * authentication on 127.0.0.1), for what the embedded server's binaries lack: pgvector, which .ci/install-pgvector
 * builds into that installation. As root the server runs as the postgres user (runuser), as PostgreSQL insists.
 */
public final class DebianPostgresCluster implements AutoCloseable {

    static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");
    static final Path PGVECTOR = Path.of("/usr/share/postgresql/15/extension/vector.control");
    /** Set to "required" (as .ci/run does) to fail rather than skip when pgvector is not installed. */
    static final String REQUIRED = "VOICEAGENT_TEST_PGVECTOR";

    private final Path directory;
    private final int port;

    private DebianPostgresCluster(Path directory, int port) {
        this.directory = directory;
        this.port = port;
    }

    /**
     * Whether Debian's PostgreSQL 15 with pgvector is installed; false skips the tests that need it, unless
     * {@value #REQUIRED} is "required".
     */
    public static boolean withPgvector() {
        boolean installed = Files.isExecutable(BIN.resolve("initdb")) && Files.exists(PGVECTOR);
        if (!installed && "required".equals(System.getenv(REQUIRED))) {
            throw new IllegalStateException("pgvector is required (" + REQUIRED + "=required) but " + PGVECTOR
                    + " is missing: run .ci/install-pgvector as root");
        }
        return installed;
    }

    public static DebianPostgresCluster start() {
        try {
            Path directory = Files.createTempDirectory("debian-pg-");
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            DebianPostgresCluster cluster = new DebianPostgresCluster(directory, port);
            if (root()) {
                run(List.of("chown", "postgres:postgres", directory.toString()));
            }
            cluster.asOwner(List.of(BIN.resolve("initdb").toString(), "-D", directory.resolve("data").toString(),
                    "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"));
            cluster.asOwner(List.of(BIN.resolve("pg_ctl").toString(), "-D", directory.resolve("data").toString(),
                    "-l", directory.resolve("server.log").toString(), "-w", "-t", "60", "-o",
                    "-p " + port + " -k " + directory + " -c listen_addresses=127.0.0.1 -c fsync=off"
                            + " -c max_connections=200 -c shared_preload_libraries=pg_stat_statements", "start"));
            return cluster;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start Debian's PostgreSQL", e);
        }
    }

    public int port() {
        return port;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    public Connection connection() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), "postgres", "postgres");
    }

    @Override
    public void close() {
        try {
            asOwner(List.of(BIN.resolve("pg_ctl").toString(), "-D", directory.resolve("data").toString(), "-m",
                    "immediate", "-w", "stop"));
        } catch (RuntimeException ignored) {
            // already stopped
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind
        }
    }

    private void asOwner(List<String> command) {
        List<String> full = new ArrayList<>();
        if (root()) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        run(full);
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static void run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + new String(output));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
