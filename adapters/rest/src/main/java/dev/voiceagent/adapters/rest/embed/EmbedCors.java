package dev.voiceagent.adapters.rest.embed;

import dev.voiceagent.adapters.rest.shared.ErrorMapper;
import dev.voiceagent.adapters.rest.shared.JsonBodyGuard;
import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import dev.voiceagent.application.embed.EmbedUseCases.EmbedPreflightUseCase;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.PathSegment;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Locale;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * CORS for the public embed paths, the one place for it. Every preflight (OPTIONS) of a path a widget calls is
 * answered here by the embed token's domains: the config's by its token (active, the page's domain allowed), a
 * session's by the domains of the token that minted it (only a known session from another domain is refused: the
 * request then says why), init's for any page (the POST checks the token). Every other response reflects the page's
 * origin, errors included, so a page can read why it was refused (a 403 for another domain, a 429) rather than see an
 * opaque network failure. The dashboard's CORS (CrossOriginPolicy) never applies here, and this never applies
 * elsewhere.
 */
@ApplicationScoped
public class EmbedCors {

    static final String PATHS = "/api/v1/public/embed/";
    static final String ALLOW_HEADERS = "Content-Type, Origin";
    /** The longest token or session token a path takes, as the resource's own methods check it. */
    static final int MAX_TOKEN = 256;

    /** Whose domains decide a path's preflight. */
    enum Decider {
        /** Any page: what it may do is checked by the request itself. */
        ANY_PAGE,
        /** The embed token named in the path. */
        TOKEN,
        /** The embed token that minted the session named in the path. */
        SESSION
    }

    /** A path a widget calls from its page (below {@link #PATHS}), the methods its preflight allows, and its docs. */
    record Preflight(String path, String methods, Decider decider, String summary, String description) {

        String parameter() {
            int open = path.indexOf('{');
            return open < 0 ? null : path.substring(open + 1, path.indexOf('}'));
        }
    }

    static final List<Preflight> PREFLIGHTS = List.of(
            new Preflight("init", "POST, OPTIONS", Decider.ANY_PAGE, "Preflight Embed Init",
                    "Any page may ask: the token is checked by the POST"),
            new Preflight("config/{token}", "GET, OPTIONS", Decider.TOKEN, "Preflight Embed Config",
                    "403 unless the token is active and the page's domain allowed"),
            new Preflight("turn-credentials/{session_token}", "GET, OPTIONS", Decider.SESSION,
                    "Preflight Embed Turn Credentials", null),
            new Preflight("chat/{session_token}", "GET, POST, OPTIONS", Decider.SESSION,
                    "Preflight Public Chat Session", null),
            new Preflight("chat/{session_token}/messages", "GET, POST, OPTIONS", Decider.SESSION,
                    "Preflight Public Chat Message", null),
            new Preflight("chat/{session_token}/end", "GET, POST, OPTIONS", Decider.SESSION,
                    "Preflight End Public Chat Session", null));

    private final EmbedPreflightUseCase preflight;

    public EmbedCors(EmbedPreflightUseCase preflight) {
        this.preflight = preflight;
    }

    void install(@Observes Router router) {
        router.route(PATHS + "*").order(-899).handler(this::reflectOrigin);
    }

    /** Every answer but a preflight's carries the page's origin (and Vary: Origin), set as its head is written. */
    void reflectOrigin(RoutingContext context) {
        String origin = context.request().getHeader(HttpHeaders.ORIGIN);
        if (origin != null && context.request().method() != HttpMethod.OPTIONS) {
            context.addHeadersEndHandler(v -> {
                if (context.response().headers().get(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN) == null) {
                    context.response().putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
                }
                String vary = context.response().headers().get(HttpHeaders.VARY);
                if (vary == null) {
                    context.response().putHeader(HttpHeaders.VARY, "Origin");
                } else if (!vary.toLowerCase(Locale.ROOT).contains("origin")) {
                    context.response().putHeader(HttpHeaders.VARY, vary + ", Origin");
                }
            });
        }
        context.next();
    }

    /**
     * Answers the preflight of a path in {@link #PREFLIGHTS} before any resource is matched: 200 with the path's
     * methods when allowed (the page's origin granted when it sent one), 403 otherwise. A token longer than
     * {@link #MAX_TOKEN} or holding a NUL is the path's 422, as for the path's other methods; a path below
     * {@link #PATHS} that a widget does not call is not found. Every other request goes on.
     */
    @ServerRequestFilter(preMatching = true)
    public Uni<Response> answerPreflight(ContainerRequestContext request) {
        if (!"OPTIONS".equals(request.getMethod())) {
            return Uni.createFrom().nullItem();
        }
        List<PathSegment> segments = request.getUriInfo().getPathSegments();
        String[] prefix = PATHS.substring(1).split("/");
        if (segments.size() <= prefix.length) {
            return Uni.createFrom().nullItem();
        }
        for (int i = 0; i < prefix.length; i++) {
            if (!prefix[i].equals(segments.get(i).getPath())) {
                return Uni.createFrom().nullItem();
            }
        }
        List<String> rest = segments.subList(prefix.length, segments.size()).stream().map(PathSegment::getPath)
                .toList();
        for (Preflight candidate : PREFLIGHTS) {
            String[] template = candidate.path().split("/");
            if (template.length != rest.size()) {
                continue;
            }
            String value = null;
            boolean matches = true;
            for (int i = 0; i < template.length && matches; i++) {
                if (template[i].startsWith("{")) {
                    value = rest.get(i);
                    matches = !value.isEmpty();
                } else {
                    matches = template[i].equals(rest.get(i));
                }
            }
            if (matches) {
                return answer(candidate, value, request.getHeaderString("Origin"));
            }
        }
        return Uni.createFrom().item(ErrorMapper.detail(Response.Status.NOT_FOUND, "Not Found"));
    }

    private Uni<Response> answer(Preflight path, String token, String origin) {
        if (token != null) {
            List<Object> loc = List.of("path", path.parameter());
            if (token.indexOf('\0') >= 0) {
                return Uni.createFrom().failure(new RequestValidationException(JsonBodyGuard.nul(loc)));
            }
            if (token.length() > MAX_TOKEN) {
                return Uni.createFrom().failure(new RequestValidationException(ValidationError.of(loc,
                        "size must be between 0 and " + MAX_TOKEN, "string_length", token)));
            }
        }
        Uni<Boolean> allowed = switch (path.decider()) {
            case ANY_PAGE -> Uni.createFrom().item(true);
            case TOKEN -> preflight.configAllowed(token, origin);
            case SESSION -> preflight.sessionAllowed(token, origin);
        };
        return allowed.map(ok -> {
            if (!ok) {
                return ErrorMapper.detail(Response.Status.FORBIDDEN, "Origin not allowed for this embed");
            }
            Response.ResponseBuilder answer = Response.ok().header("Access-Control-Allow-Methods", path.methods())
                    .header("Access-Control-Allow-Headers", ALLOW_HEADERS).header("Access-Control-Max-Age", "86400")
                    .header("Vary", "Origin");
            return (origin == null ? answer : answer.header("Access-Control-Allow-Origin", origin)).build();
        });
    }

    /**
     * The preflights in the OpenAPI document, as the reference documents them (an OPTIONS operation per path): called
     * by the build-time document filter, since no resource method declares them.
     */
    public static void document(OpenAPI openAPI) {
        for (Preflight path : PREFLIGHTS) {
            Operation operation = OASFactory.createOperation().summary(path.summary()).description(path.description())
                    .tags(List.of("Public Embed Resource"))
                    .responses(OASFactory.createAPIResponses().addAPIResponse("200", OASFactory.createAPIResponse()
                            .description("OK").content(OASFactory.createContent().addMediaType("application/json",
                                    OASFactory.createMediaType()))));
            if (path.parameter() != null) {
                operation.addParameter(OASFactory.createParameter().name(path.parameter()).in(Parameter.In.PATH)
                        .required(true).schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING)
                                .maxLength(MAX_TOKEN)));
            }
            String key = PATHS + path.path();
            PathItem item = openAPI.getPaths().getPathItem(key);
            if (item == null) {
                item = OASFactory.createPathItem();
                openAPI.getPaths().addPathItem(key, item);
            }
            item.OPTIONS(operation);
        }
    }
}
