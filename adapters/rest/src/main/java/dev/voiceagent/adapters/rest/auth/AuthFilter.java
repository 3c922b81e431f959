package dev.voiceagent.adapters.rest.auth;

import dev.voiceagent.adapters.rest.shared.ErrorMapper;
import dev.voiceagent.adapters.rest.shared.PublicPaths;
import dev.voiceagent.application.auth.AuthenticateUseCase;
import dev.voiceagent.application.auth.Credentials;
import dev.voiceagent.application.ratelimit.RateLimitUseCase;
import dev.voiceagent.application.shared.AuthenticationException;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Secure by default: every matched operation needs X-API-Key or authorization unless it is marked
 * {@link PublicEndpoint} (or, for provider callbacks that check their own signatures, @PermitAll). Runs after routing, so unknown routes are still a plain 404.
 */
public class AuthFilter {

    public static final String API_KEY_HEADER = "X-API-Key";
    public static final String AUTHORIZATION_HEADER = "authorization";

    /** The request property holding the rate-limit decision, for the response headers. */
    static final String RATE_LIMIT = "voiceagent.rate-limit";

    private final AuthenticateUseCase authenticate;
    private final Caller caller;
    private final RateLimitUseCase rateLimits;

    public AuthFilter(AuthenticateUseCase authenticate, Caller caller, RateLimitUseCase rateLimits) {
        this.authenticate = authenticate;
        this.caller = caller;
        this.rateLimits = rateLimits;
    }

    @ServerRequestFilter
    public Uni<Response> authenticate(ContainerRequestContext request, ResourceInfo resource) {
        if (resource == null || resource.getResourceMethod() == null) {
            return Uni.createFrom().nullItem();
        }
        if (isPublic(resource)) {
            // a public agent trigger checks its own key, after its body: an anonymous call is refused before that
            String key = request.getHeaderString(API_KEY_HEADER);
            String path = request.getUriInfo().getPath();
            return (path.startsWith("/") ? path : "/" + path).startsWith(PublicPaths.KEYED_PREFIX)
                    && (key == null || key.isBlank())
                    ? Uni.createFrom().item(ErrorMapper.detail(Response.Status.UNAUTHORIZED,
                            "X-API-Key header required"))
                    : Uni.createFrom().nullItem();
        }
        var credentials = new Credentials(request.getHeaderString(API_KEY_HEADER),
                request.getHeaderString(AUTHORIZATION_HEADER));
        return authenticate.authenticate(credentials)
                .invoke(caller::set)
                .chain(principal -> rateLimits.admit(principal).map(decision -> {
                    if (decision == null) {
                        return (Response) null;
                    }
                    request.setProperty(RATE_LIMIT, decision);
                    return decision.allowed() ? null : RateLimitHeaders.refused(decision);
                }))
                .onFailure(AuthenticationException.class)
                .recoverWithItem(failure -> ErrorMapper.detail(Response.Status.UNAUTHORIZED, failure.getMessage()));
    }

    /** Every response to a limited request carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset. */
    @ServerResponseFilter
    public void rateLimitHeaders(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(RATE_LIMIT) instanceof RateLimitUseCase.Decision decision) {
            RateLimitHeaders.add(response.getHeaders(), decision);
        }
    }

    private static boolean isPublic(ResourceInfo resource) {
        // @PermitAll marks provider callbacks in other adapters: they authenticate by signature instead
        return resource.getResourceMethod().isAnnotationPresent(PublicEndpoint.class)
                || resource.getResourceClass().isAnnotationPresent(PublicEndpoint.class)
                || resource.getResourceClass().isAnnotationPresent(PermitAll.class);
    }
}
