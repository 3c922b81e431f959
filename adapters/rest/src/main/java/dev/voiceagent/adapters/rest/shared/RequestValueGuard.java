package dev.voiceagent.adapters.rest.shared;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The NUL rule of {@link JsonBodyGuard} for path and query values: a decoded value holding a NUL
 * character is a 422 naming it (["path", name] or ["query", name]) before any resource code runs.
 */
public class RequestValueGuard {

    @ServerRequestFilter(priority = Priorities.USER + 10) // after authentication
    public Response refuseNul(ContainerRequestContext request) {
        List<Object> loc = find("path", request.getUriInfo().getPathParameters(true));
        if (loc == null) {
            loc = find("query", request.getUriInfo().getQueryParameters(true));
        }
        return loc == null ? null : ErrorMapper.unprocessable(List.of(JsonBodyGuard.nul(loc)));
    }

    private static List<Object> find(String source, MultivaluedMap<String, String> values) {
        for (Map.Entry<String, List<String>> entry : values.entrySet()) {
            if (entry.getKey().indexOf('\0') >= 0) {
                return List.of(source, entry.getKey().replace('\0', '?'));
            }
            for (String value : entry.getValue()) {
                if (value != null && value.indexOf('\0') >= 0) {
                    return List.of(source, entry.getKey());
                }
            }
        }
        return null;
    }
}
