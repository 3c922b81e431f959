package dev.voiceagent.deploy.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** The test application on a fresh Debian PostgreSQL 15 cluster that has pgvector (see {@link DebianPostgresCluster}). */
public class PgvectorPostgresResource implements QuarkusTestResourceLifecycleManager {

    private DebianPostgresCluster cluster;

    @Override
    public Map<String, String> start() {
        cluster = DebianPostgresCluster.start();
        return EmbeddedPostgresResource.config(cluster.jdbcUrl(), "postgres", "postgres");
    }

    @Override
    public void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }
}
