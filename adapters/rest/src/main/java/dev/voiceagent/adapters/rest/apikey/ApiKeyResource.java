package dev.voiceagent.adapters.rest.apikey;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.apikey.ArchiveApiKeyUseCase;
import dev.voiceagent.application.apikey.CreateApiKeyUseCase;
import dev.voiceagent.application.apikey.ListApiKeysUseCase;
import dev.voiceagent.application.apikey.ReactivateApiKeyUseCase;
import dev.voiceagent.domain.apikey.ApiKey;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import java.util.List;

/** API keys of the caller's organization. The full key is returned once, at creation. */
@Path("/api/v1/user/api-keys")
public class ApiKeyResource {

    public record CreateAPIKeyRequest(@NotBlank @Size(max = 255) String name) {
    }

    public record CreateAPIKeyResponse(long id, String name, String keyPrefix, String apiKey,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt) {
    }

    public record APIKeyResponse(long id, String name, String keyPrefix, boolean isActive,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(nullable = true, type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant lastUsedAt,
            @Schema(nullable = true, type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant archivedAt) {

        static APIKeyResponse of(ApiKey key) {
            return new APIKeyResponse(key.id(), key.name(), key.keyPrefix(), key.usable(), key.createdAt(),
                    key.lastUsedAt(), key.archivedAt());
        }
    }

    @Schema(name = "APIKeyActionResponse", description = "The outcome of an archive or a reactivation")
    public record APIKeyStatusResponse(boolean success, String message) {
    }

    private final ListApiKeysUseCase list;
    private final CreateApiKeyUseCase create;
    private final ArchiveApiKeyUseCase archive;
    private final ReactivateApiKeyUseCase reactivate;
    private final Caller caller;

    public ApiKeyResource(ListApiKeysUseCase list, CreateApiKeyUseCase create, ArchiveApiKeyUseCase archive,
            ReactivateApiKeyUseCase reactivate, Caller caller) {
        this.list = list;
        this.create = create;
        this.archive = archive;
        this.reactivate = reactivate;
        this.caller = caller;
    }

    @GET
    public Uni<List<APIKeyResponse>> list(@QueryParam("include_archived") @DefaultValue("false") boolean includeArchived) {
        return list.list(caller.principal(), includeArchived)
                .map(keys -> keys.stream().map(APIKeyResponse::of).toList());
    }

    @POST
    public Uni<CreateAPIKeyResponse> create(@NotNull @Valid CreateAPIKeyRequest body) {
        return create.create(caller.principal(), body.name()).map(created -> new CreateAPIKeyResponse(
                created.key().id(), created.key().name(), created.key().keyPrefix(), created.secret().value(),
                created.key().createdAt()));
    }

    @DELETE
    @Path("/{api_key_id}")
    public Uni<APIKeyStatusResponse> archive(@PathParam("api_key_id") long apiKeyId) {
        return archive.archive(caller.principal(), apiKeyId)
                .replaceWith(new APIKeyStatusResponse(true, "API key archived successfully"));
    }

    @PUT
    @Path("/{api_key_id}/reactivate")
    public Uni<APIKeyStatusResponse> reactivate(@PathParam("api_key_id") long apiKeyId) {
        return reactivate.reactivate(caller.principal(), apiKeyId)
                .replaceWith(new APIKeyStatusResponse(true, "API key reactivated successfully"));
    }
}
