package dev.voiceagent.adapters.rest.servicekey;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.servicekey.ServiceKeyUseCases.ArchiveServiceKeyUseCase;
import dev.voiceagent.application.servicekey.ServiceKeyUseCases.CreateServiceKeyUseCase;
import dev.voiceagent.application.servicekey.ServiceKeyUseCases.ListServiceKeysUseCase;
import dev.voiceagent.application.servicekey.ServiceKeyUseCases.ReactivateServiceKeyUseCase;
import dev.voiceagent.domain.servicekey.ServiceKey;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
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
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Service keys: machine credentials (a voice runtime, a CI pipeline) that authenticate in X-API-Key like an
 * API key, scoped to the organization, until they expire or are archived. The key is shown once.
 */
@Path("/api/v1/user/service-keys")
public class ServiceKeyResource {

    public record CreateServiceKeyRequest(@NotBlank @Size(max = ServiceKey.MAX_NAME_LENGTH) String name,
            @Schema(nullable = true, defaultValue = "90", description = "1 to 365; 90 when absent")
            @Min(1) @Max(ServiceKey.MAX_DAYS) Integer expiresInDays) {
    }

    public record CreateServiceKeyResponse(long id, String name, String serviceKey, String keyPrefix,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant expiresAt) {
    }

    public record ServiceKeyResponse(String name, long id, String keyPrefix, boolean isActive,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(nullable = true, type = SchemaType.STRING, format = "date-time", implementation = String.class)
            Instant lastUsedAt,
            @Schema(nullable = true, type = SchemaType.STRING, format = "date-time", implementation = String.class)
            Instant expiresAt,
            @Schema(nullable = true, type = SchemaType.STRING, format = "date-time", implementation = String.class)
            Instant archivedAt,
            @Schema(nullable = true, description = "The id of the user who created it") String createdBy) {

        static ServiceKeyResponse of(ServiceKey key, Instant now) {
            return new ServiceKeyResponse(key.name(), key.id(), key.keyPrefix(), key.usable(now), key.createdAt(),
                    key.lastUsedAt(), key.expiresAt(), key.archivedAt(), String.valueOf(key.createdBy()));
        }
    }

    @Schema(name = "ServiceKeyActionResponse")
    public record ServiceKeyActionResponse(boolean success, String message) {
    }

    private final ListServiceKeysUseCase list;
    private final CreateServiceKeyUseCase create;
    private final ArchiveServiceKeyUseCase archive;
    private final ReactivateServiceKeyUseCase reactivate;
    private final Caller caller;
    private final Clock clock;

    public ServiceKeyResource(ListServiceKeysUseCase list, CreateServiceKeyUseCase create,
            ArchiveServiceKeyUseCase archive, ReactivateServiceKeyUseCase reactivate, Caller caller, Clock clock) {
        this.clock = clock;
        this.list = list;
        this.create = create;
        this.archive = archive;
        this.reactivate = reactivate;
        this.caller = caller;
    }

    @GET
    @Operation(summary = "Get Service Keys", description = "The organization's service keys, oldest first; archived"
            + " ones only with include_archived=true. is_active is false once a key is archived or expired")
    public Uni<List<ServiceKeyResponse>> list(
            @QueryParam("include_archived") @DefaultValue("false") boolean includeArchived) {
        return list.list(caller.principal(), includeArchived).map(keys -> {
            Instant now = clock.instant();
            return keys.stream().map(k -> ServiceKeyResponse.of(k, now)).toList();
        });
    }

    @POST
    @Operation(summary = "Create Service Key", description = "A new key for the organization, valid for"
            + " expires_in_days (1 to 365, default 90); service_key is shown this once")
    public Uni<CreateServiceKeyResponse> create(@NotNull @Valid CreateServiceKeyRequest body) {
        return create.create(caller.principal(), body.name(), body.expiresInDays()).map(created ->
                new CreateServiceKeyResponse(created.key().id(), created.key().name(), created.rawKey(),
                        created.key().keyPrefix(), created.key().expiresAt()));
    }

    @DELETE
    @Path("/{service_key_id}")
    @Operation(summary = "Archive Service Key", description = "The key is refused from the next request on, on every"
            + " replica")
    public Uni<ServiceKeyActionResponse> archive(@PathParam("service_key_id") long serviceKeyId) {
        return archive.archive(caller.principal(), serviceKeyId)
                .replaceWith(new ServiceKeyActionResponse(true, "Service key archived successfully"));
    }

    @PUT
    @Path("/{service_key_id}/reactivate")
    @Operation(summary = "Reactivate Service Key", description = "An archived key works again until it expires; an"
            + " expired key cannot be reactivated (400)")
    public Uni<ServiceKeyActionResponse> reactivate(@PathParam("service_key_id") long serviceKeyId) {
        return reactivate.reactivate(caller.principal(), serviceKeyId)
                .replaceWith(new ServiceKeyActionResponse(true, "Service key reactivated successfully"));
    }
}
