package dev.voiceagent.deploy.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/** An embedded PostgreSQL of its own that a test may stop (the outage tests); never an external one. */
public class StoppablePostgresResource extends EmbeddedPostgresResource {

    private static volatile StoppablePostgresResource current;

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
}
