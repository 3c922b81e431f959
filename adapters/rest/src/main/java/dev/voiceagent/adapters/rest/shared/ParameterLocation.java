package dev.voiceagent.adapters.rest.shared;

import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.lang.annotation.Annotation;
import java.util.List;

/** Where a resource-method parameter comes from, as a 422 loc: ["path"|"query"|"header", name]. */
final class ParameterLocation {

    private ParameterLocation() {
    }

    /** The location named by the parameter's JAX-RS annotation, or null for the request body. */
    static List<Object> of(Annotation[] annotations) {
        for (Annotation annotation : annotations) {
            if (annotation instanceof PathParam p) {
                return List.of("path", p.value());
            }
            if (annotation instanceof QueryParam q) {
                return List.of("query", q.value());
            }
            if (annotation instanceof HeaderParam h) {
                return List.of("header", h.value());
            }
        }
        return null;
    }
}
