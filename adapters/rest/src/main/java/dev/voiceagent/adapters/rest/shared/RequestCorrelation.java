package dev.voiceagent.adapters.rest.shared;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.jboss.logging.MDC;

/**
 * Gives every HTTP request an id: the caller's {@code X-Request-Id} when it is a sane token (so a
 * gateway's id follows the request through), otherwise a new random one. The id is echoed in the
 * response's {@code X-Request-Id} and put in the logging context under {@code request_id}, so every
 * line logged while serving the request carries it (JSON logs: {@code mdc.request_id}). Quarkus
 * keeps the logging context on the request's Vert.x context, so it survives the asynchronous hops
 * of a reactive request.
 */
@ApplicationScoped
public class RequestCorrelation {

    public static final String HEADER = "X-Request-Id";
    public static final String LOG_KEY = "request_id";

    /** Letters, digits and a few separators, 1-128 long: nothing that could forge a log line. */
    private static final Pattern ACCEPTED = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    private static final SecureRandom RANDOM = new SecureRandom();

    void install(@Observes Router router) {
        router.route().order(-1000).handler(this::handle);
    }

    void handle(RoutingContext context) {
        String id = context.get(LOG_KEY); // set when a request is rerouted (e.g. /api/v1/openapi.json)
        if (id == null) {
            id = accepted(context.request().getHeader(HEADER));
            context.put(LOG_KEY, id);
            context.addEndHandler(done -> MDC.remove(LOG_KEY));
        }
        MDC.put(LOG_KEY, id);
        context.response().putHeader(HEADER, id);
        context.next();
    }

    /** The id of the request being served, or null outside one. */
    public static String current() {
        Object id = MDC.get(LOG_KEY);
        return id == null ? null : id.toString();
    }

    static String accepted(String offered) {
        if (offered != null && ACCEPTED.matcher(offered).matches()) {
            return offered;
        }
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
