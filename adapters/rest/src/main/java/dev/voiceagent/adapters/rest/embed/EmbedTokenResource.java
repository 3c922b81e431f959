package dev.voiceagent.adapters.rest.embed;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.shared.PublicBaseUrl;
import dev.voiceagent.application.embed.EmbedUseCases.DeactivateEmbedTokenUseCase;
import dev.voiceagent.application.embed.EmbedUseCases.GetEmbedTokenUseCase;
import dev.voiceagent.application.embed.EmbedUseCases.SaveEmbedTokenUseCase;
import dev.voiceagent.domain.embed.EmbedToken;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A workflow's website embed token: one per workflow, saved (created or updated and reactivated), read, deactivated. */
@Path("/api/v1/workflow/{workflow_id}/embed-token")
public class EmbedTokenResource {

    public record EmbedTokenRequest(
            @Schema(nullable = true, description = "Domains whose pages may use the token: example.com (www. too),"
                    + " *.example.com, example.com:8443, or * for any; none: any page")
            @Size(max = EmbedToken.MAX_DOMAINS) List<@NotNull @Size(max = EmbedToken.MAX_DOMAIN_LENGTH) String> allowedDomains,
            @Schema(nullable = true, description = "The widget's settings: widgetType (voice or chat), theme, position,"
                    + " buttonText, buttonColor, size, autoStart, texts {...}") Map<String, Object> settings,
            @Schema(nullable = true) @Min(1) @Max(100_000_000) Integer usageLimit,
            @Schema(nullable = true, defaultValue = "30", description = "1 to 3650 (30 when not given)") @Min(1) @Max(3650)
            Integer expiresInDays) {
    }

    public record EmbedTokenResponse(long id, String token, @Schema(nullable = true) List<String> allowedDomains,
            @Schema(nullable = true) Map<String, Object> settings, boolean isActive, int usageCount,
            @Schema(nullable = true) Integer usageLimit,
            @Schema(nullable = true, type = SchemaType.STRING, format = "date-time", implementation = String.class)
            Instant expiresAt,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            String embedScript) {
    }

    @Schema(name = "EmbedTokenActionResponse")
    public record ActionResponse(boolean success, String message) {
    }

    private final Caller caller;
    private final SaveEmbedTokenUseCase save;
    private final GetEmbedTokenUseCase get;
    private final DeactivateEmbedTokenUseCase deactivate;
    private final PublicBaseUrl publicBaseUrl;
    private final String widgetBaseUrl;
    private final String environment;

    @Context
    HttpServerRequest request;

    /**
     * @param widgetBaseUrl the dashboard's origin, which serves the widget's script ({@code /embed/dograh-widget.js}),
     *                      as the reference's {@code UI_APP_URL} (its default too: the dashboard run locally)
     * @param environment   passed to the widget as the reference passes its {@code ENVIRONMENT}
     */
    public EmbedTokenResource(Caller caller, SaveEmbedTokenUseCase save, GetEmbedTokenUseCase get,
            DeactivateEmbedTokenUseCase deactivate, PublicBaseUrl publicBaseUrl,
            @ConfigProperty(name = "voiceagent.embed.widget-base-url", defaultValue = "http://localhost:3010")
            String widgetBaseUrl,
            @ConfigProperty(name = "voiceagent.environment", defaultValue = "local") String environment) {
        this.caller = caller;
        this.save = save;
        this.get = get;
        this.deactivate = deactivate;
        this.publicBaseUrl = publicBaseUrl;
        String base = widgetBaseUrl.strip();
        this.widgetBaseUrl = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.environment = environment.strip();
    }

    private EmbedTokenResponse response(EmbedToken t) {
        return new EmbedTokenResponse(t.id(), t.token(), t.allowedDomains(), t.settings(), t.active(), t.usageCount(),
                t.usageLimit(), t.expiresAt(), t.createdAt(), script(t.token(), publicBaseUrl.of(request)));
    }

    /**
     * The snippet a website owner pastes, as the reference's dashboard shows it: it loads the widget's script from
     * the dashboard's origin with the token, the environment and this API's public address ({@code apiEndpoint}, where
     * the widget then calls), once per page, with the visitor's page and date as the call's context.
     */
    String script(String token, String apiEndpoint) {
        return """
                <!-- Dograh Widget -->
                <script>
                  (function(d, s, id) {
                    var js, fjs = d.getElementsByTagName(s)[0];
                    if (d.getElementById(id)) return;
                    js = d.createElement(s); js.id = id;
                    js.src = '%s/embed/dograh-widget.js?token=%s&environment=%s&apiEndpoint=%s';
                    // Details about this visitor, available in your prompts as
                    // {{initial_context.page_url}}. Edit these or add your own.
                    js.setAttribute('data-dograh-context', JSON.stringify({
                      page_url: window.location.href,
                      today: new Date().toISOString().slice(0, 10)
                    }));
                    js.async = true;
                    fjs.parentNode.insertBefore(js, fjs);
                  }(document, 'script', 'dograh-widget'));
                </script>""".formatted(widgetBaseUrl, query(token), query(environment), query(apiEndpoint));
    }

    private static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("%3A", ":").replace("%2F", "/");
    }

    @POST
    @Operation(summary = "Create Or Update Embed Token", description = "The workflow's token (emb_...), created the"
            + " first time and updated (and reactivated) after that, with a ready-made script tag")
    public Uni<EmbedTokenResponse> save(@PathParam("workflow_id") long workflowId, @Valid EmbedTokenRequest body) {
        EmbedTokenRequest b = body == null ? new EmbedTokenRequest(null, null, null, 30) : body;
        return save.save(caller.principal(), workflowId, b.allowedDomains(), b.settings(), b.usageLimit(),
                b.expiresInDays()).map(this::response);
    }

    @GET
    @Operation(summary = "Get Embed Token", description = "The workflow's active token, or null")
    @APIResponse(responseCode = "200", description = "The active token, or null", content = @Content(
            mediaType = "application/json", schema = @Schema(implementation = EmbedTokenResponse.class, nullable = true)))
    public Uni<Response> get(@PathParam("workflow_id") long workflowId) {
        return get.get(caller.principal(), workflowId).map(found -> Response.ok(found.map(this::response)
                .<Object>map(r -> r).orElse(NULL_JSON)).type(MediaType.APPLICATION_JSON).build());
    }

    /** JSON null (a null entity would be a 204). */
    private static final Object NULL_JSON = NullNode.getInstance();

    @DELETE
    @Operation(summary = "Deactivate Embed Token", description = "Pages can no longer use it; 404 when none is active")
    public Uni<ActionResponse> deactivate(@PathParam("workflow_id") long workflowId) {
        return deactivate.deactivate(caller.principal(), workflowId)
                .replaceWith(new ActionResponse(true, "Embed token deactivated"));
    }
}
