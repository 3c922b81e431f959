package dev.voiceagent.adapters.rest.embed;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The public embed paths reflect the page's origin on every response, errors included, so a page can read why
 * it was refused (a 403 for another domain, a 429) rather than see an opaque network failure. What a page may
 * do is decided by the embed token's domains in the use cases; the preflights are answered by the resource.
 * The dashboard's CORS (CrossOriginPolicy) never applies here, and this never applies elsewhere.
 */
@ApplicationScoped
public class EmbedCors {

    static final String PATHS = "/api/v1/public/embed/";

    void install(@Observes Router router) {
        router.route(PATHS + "*").order(-899).handler(this::handle);
    }

    void handle(RoutingContext context) {
        String origin = context.request().getHeader(HttpHeaders.ORIGIN);
        if (origin != null && context.request().method() != HttpMethod.OPTIONS) {
            context.addHeadersEndHandler(v -> {
                if (context.response().headers().get(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN) == null) {
                    context.response().putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
                }
                String vary = context.response().headers().get(HttpHeaders.VARY);
                if (vary == null) {
                    context.response().putHeader(HttpHeaders.VARY, "Origin");
                } else if (!vary.toLowerCase(java.util.Locale.ROOT).contains("origin")) {
                    context.response().putHeader(HttpHeaders.VARY, vary + ", Origin");
                }
            });
        }
        context.next();
    }
}
