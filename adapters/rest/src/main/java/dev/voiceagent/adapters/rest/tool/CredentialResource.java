package dev.voiceagent.adapters.rest.tool;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import dev.voiceagent.application.tool.ToolUseCases.CredentialChange;
import dev.voiceagent.application.tool.ToolUseCases.CredentialsUseCase;
import dev.voiceagent.domain.tool.Credential;
import dev.voiceagent.domain.tool.CredentialType;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Credentials tools authenticate with. The data is sealed at rest and never shown again: a response carries the
 * type and the name only.
 */
@Path("/api/v1/credentials")
public class CredentialResource {

    public record CreateCredentialRequest(@NotBlank @Size(max = Credential.MAX_NAME) String name,
            @Schema(nullable = true) @Size(max = Credential.MAX_DESCRIPTION) String description,
            @NotNull @Schema(enumeration = {"none", "api_key", "bearer_token", "basic_auth", "custom_header"})
            String credentialType,
            @NotNull @Schema(description = "api_key {header_name, api_key}; bearer_token {token}; basic_auth"
                    + " {username, password}; custom_header {header_name, header_value}; none {}")
            Map<String, Object> credentialData) {
    }

    public record UpdateCredentialRequest(@Schema(nullable = true) @Size(min = 1, max = Credential.MAX_NAME) String name,
            @Schema(nullable = true) @Size(max = Credential.MAX_DESCRIPTION) String description,
            @Schema(nullable = true, enumeration = {"none", "api_key", "bearer_token", "basic_auth", "custom_header"})
            String credentialType,
            @Schema(nullable = true, description = "The whole data of the type; omitted: the stored data stays")
            Map<String, Object> credentialData) {
    }

    public record CredentialResponse(String uuid, String name, @Schema(nullable = true) String description,
            String credentialType,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class, nullable = true)
            Instant updatedAt) {

        static CredentialResponse of(Credential c) {
            return new CredentialResponse(c.uuid(), c.name(), c.description(), c.type().wireName(), c.createdAt(),
                    c.updatedAt());
        }
    }

    public record DeleteCredentialResponse(String status, String uuid) {
    }

    private final Caller caller;
    private final CredentialsUseCase credentials;

    public CredentialResource(Caller caller, CredentialsUseCase credentials) {
        this.caller = caller;
        this.credentials = credentials;
    }

    @GET
    @Path("/")
    @Operation(summary = "List Credentials", description = "The organization's credentials, newest first (no secrets)")
    public Uni<List<CredentialResponse>> list() {
        return credentials.list(caller.principal()).map(all -> all.stream().map(CredentialResponse::of).toList());
    }

    @POST
    @Path("/")
    @Operation(summary = "Create Credential", description = "Sealed at rest; the name is unique in the organization"
            + " (409); a type's missing field is a 400")
    public Uni<CredentialResponse> create(@NotNull @Valid CreateCredentialRequest body) {
        CredentialType type = type(body.credentialType());
        return credentials.create(caller.principal(), new CredentialChange(body.name(), body.description(), type,
                data(body.credentialData()))).map(CredentialResponse::of);
    }

    @GET
    @Path("/{credential_uuid}")
    @Operation(summary = "Get Credential")
    public Uni<CredentialResponse> get(@PathParam("credential_uuid") String uuid) {
        return credentials.get(caller.principal(), uuid).map(CredentialResponse::of);
    }

    @PUT
    @Path("/{credential_uuid}")
    @Operation(summary = "Update Credential", description = "Omitted fields stay; another type needs its whole data")
    public Uni<CredentialResponse> update(@PathParam("credential_uuid") String uuid,
            @NotNull @Valid UpdateCredentialRequest body) {
        CredentialType type = body.credentialType() == null ? null : type(body.credentialType());
        return credentials.update(caller.principal(), uuid, new CredentialChange(body.name(), body.description(), type,
                body.credentialData() == null ? null : data(body.credentialData()))).map(CredentialResponse::of);
    }

    @DELETE
    @Path("/{credential_uuid}")
    @Operation(summary = "Delete Credential", description = "Soft delete; 409 naming the tools that still use it")
    public Uni<DeleteCredentialResponse> delete(@PathParam("credential_uuid") String uuid) {
        return credentials.delete(caller.principal(), uuid).map(v -> new DeleteCredentialResponse("deleted", uuid));
    }

    private static CredentialType type(String wire) {
        return CredentialType.byWireName(wire).orElseThrow(() -> new RequestValidationException(ValidationError.of(
                List.of("body", "credential_type"), "Input should be " + Arrays.stream(CredentialType.values())
                        .map(t -> "'" + t.wireName() + "'").toList().toString().replace("[", "").replace("]", ""),
                "enum", wire)));
    }

    /** The data's values are text; a number or a boolean is taken as its text, an object or a list is refused. */
    private static Map<String, String> data(Map<String, Object> in) {
        Map<String, String> out = new LinkedHashMap<>();
        in.forEach((k, v) -> {
            if (v instanceof Map<?, ?> || v instanceof List<?>) {
                throw new RequestValidationException(ValidationError.of(List.of("body", "credential_data", k),
                        "Input should be a valid string", "string_type", null));
            }
            if (v != null) {
                out.put(k, String.valueOf(v));
            }
        });
        return out;
    }
}
