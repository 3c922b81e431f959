package dev.voiceagent.adapters.rest.shared;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * CORS for the dashboard (a web app on another origin): origins listed in
 * {@code voiceagent.cors.allowed-origins} (exact, or with {@code *} standing for any port or
 * sub-domain, e.g. {@code http://localhost:*}) get the standard answer to their preflight and the
 * CORS headers on every response, whatever its status, so that a write that succeeded is never
 * reported to the browser as a failure. Credentials travel in the authorization or X-API-Key
 * header, so no cookies are allowed. The public embed paths keep their own per-token rules.
 */
@ApplicationScoped
public class CrossOriginPolicy {

    static final String EMBED_PATHS = "/api/v1/public/embed/";
    private static final String ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
    private static final String ALLOWED_HEADERS = "authorization, content-type, x-api-key, idempotency-key, x-request-id";
    private static final String EXPOSED_HEADERS = "X-Request-Id, Content-Disposition";

    private final List<Pattern> allowed;

    public CrossOriginPolicy(@ConfigProperty(name = "voiceagent.cors.allowed-origins") Optional<List<String>> origins) {
        this.allowed = origins.orElse(List.of()).stream().map(String::strip).filter(o -> !o.isEmpty())
                .map(CrossOriginPolicy::pattern).toList();
    }

    void install(@Observes Router router) {
        router.route("/api/v1/*").order(-900).handler(this::handle);
    }

    void handle(RoutingContext context) {
        String origin = context.request().getHeader(HttpHeaders.ORIGIN);
        if (origin == null || context.request().path().startsWith(EMBED_PATHS)) {
            context.next();
            return;
        }
        boolean preflight = context.request().method() == HttpMethod.OPTIONS
                && context.request().getHeader(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD) != null;
        if (!allows(origin)) {
            if (preflight) {
                context.response().setStatusCode(403).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                        .end("{\"detail\":\"Origin not allowed\"}");
            } else {
                context.next(); // answered without CORS headers: the browser keeps the response from the page
            }
            return;
        }
        context.response().putHeader(HttpHeaders.VARY, "Origin");
        if (preflight) {
            context.response().setStatusCode(204)
                    .putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, origin)
                    .putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS, ALLOWED_METHODS)
                    .putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS)
                    .putHeader(HttpHeaders.ACCESS_CONTROL_MAX_AGE, "600").end();
            return;
        }
        // set as the head is written, so that error responses (and a reset of the headers) carry them too
        context.addHeadersEndHandler(v -> context.response()
                .putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, origin)
                .putHeader(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED_HEADERS));
        context.next();
    }

    boolean allows(String origin) {
        String o = origin.strip().toLowerCase(Locale.ROOT);
        return allowed.stream().anyMatch(p -> p.matcher(o).matches());
    }

    /** "http://localhost:*" -> any port; "https://*.example.com" -> any sub-domain; otherwise exact. */
    static Pattern pattern(String origin) {
        String lower = origin.toLowerCase(Locale.ROOT);
        StringBuilder regex = new StringBuilder();
        for (String part : lower.split("\\*", -1)) {
            if (!regex.isEmpty()) {
                regex.append("[a-z0-9.-]*");
            }
            regex.append(Pattern.quote(part));
        }
        return Pattern.compile(regex.toString());
    }
}
