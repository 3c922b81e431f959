package dev.voiceagent.adapters.rest.shared;

import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves the OpenAPI document also where the reference's clients fetch it: /api/v1/openapi.json. */
@ApplicationScoped
public class OpenApiAlias {

    void route(@Observes Router router) {
        router.get("/api/v1/openapi.json").handler(rc -> {
            rc.request().headers().set("Accept", "application/json");
            rc.reroute("/q/openapi");
        });
    }
}
