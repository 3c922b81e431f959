package dev.voiceagent.deploy.observability;

import io.vertx.ext.web.Router;
import io.vertx.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Test-only route (a plain Vert.x route: not part of the API or its OpenAPI document): logs one line
 * before and one after a PostgreSQL round trip, as a reactive request handler does, so a test can
 * check that the request's id is in the logging context on both sides of the asynchronous hop.
 */
@ApplicationScoped
public class LogProbeRoute {

    static final String PATH = "/test-support/log-probe";
    static final Logger LOG = Logger.getLogger(LogProbeRoute.class);

    void install(@Observes Router router, Pool pool) {
        router.get(PATH).handler(context -> {
            LOG.info("probe before the query");
            pool.query("SELECT pg_sleep(0.05)").execute().onComplete(done -> {
                LOG.info("probe after the query");
                context.response().setStatusCode(204).end();
            });
        });
    }
}
