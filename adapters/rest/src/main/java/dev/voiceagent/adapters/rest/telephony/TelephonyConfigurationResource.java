package dev.voiceagent.adapters.rest.telephony;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import dev.voiceagent.application.telephony.AddPhoneNumberCommand;
import dev.voiceagent.application.telephony.AddPhoneNumberUseCase;
import dev.voiceagent.application.telephony.CreateTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.DeleteTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.GetPhoneNumberUseCase;
import dev.voiceagent.application.telephony.GetTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.ListDispositionCodesUseCase;
import dev.voiceagent.application.telephony.ListPhoneNumbersUseCase;
import dev.voiceagent.application.telephony.ListTelephonyConfigurationsUseCase;
import dev.voiceagent.application.telephony.ReactivateTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.RemovePhoneNumberUseCase;
import dev.voiceagent.application.telephony.SetDefaultCallerUseCase;
import dev.voiceagent.application.telephony.SetDefaultOutboundUseCase;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.application.telephony.TelephonyConfigurations;
import dev.voiceagent.application.telephony.UpdatePhoneNumberCommand;
import dev.voiceagent.application.telephony.UpdatePhoneNumberUseCase;
import dev.voiceagent.application.telephony.UpdateTelephonyConfigurationUseCase;
import dev.voiceagent.domain.telephony.DispositionCodes;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.common.annotation.NonBlocking;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Telephony configurations and their phone numbers, provider metadata, warnings and disposition codes. */
@Path("/api/v1/organizations")
public class TelephonyConfigurationResource {

    public record TelephonyConfigurationCreateRequest(@NotBlank @Size(max = 64) String name, Boolean isDefaultOutbound,
            @NotNull Map<String, Object> config) {
    }

    public record TelephonyConfigurationUpdateRequest(@Size(min = 1, max = 64) String name, Map<String, Object> config) {
    }

    @Schema(name = "TelephonyConfigurationDetail")
    public record TelephonyConfigurationResponse(long id, String name, String provider, String connectivity,
            boolean isDefaultOutbound, boolean inactive,
            @Schema(nullable = true, type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant inactiveSince,
            @Schema(nullable = true) String inactiveReason, int phoneNumberCount, boolean isReadyForOutbound,
            @Schema(nullable = true) String outboundBlockedReason,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant updatedAt,
            Map<String, Object> config) {

        static TelephonyConfigurationResponse of(TelephonyConfigurationView v) {
            var c = v.configuration();
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("provider", c.provider().wireName());
            config.putAll(dev.voiceagent.domain.telephony.ProviderConfigurations.masked(c.provider(), c.configuration().fields()));
            return new TelephonyConfigurationResponse(c.id(), c.name(), c.provider().wireName(), "api",
                    c.defaultOutbound(), !c.active(), c.inactiveSince(), c.inactiveReason(), v.activeNumbers(),
                    v.readyForOutbound(), v.outboundBlockedReason().orElse(null), c.createdAt(), c.updatedAt(), config);
        }
    }

    public record TelephonyConfigurationListResponse(List<TelephonyConfigurationResponse> configurations) {
    }

    public record ProviderFieldResponse(String name, String label, boolean required, boolean sensitive, String type) {
    }

    public record ProviderMetadataResponse(String provider, String displayName, boolean supportsOutbound,
            boolean supportsTrunks, List<ProviderFieldResponse> fields) {
    }

    public record TelephonyProvidersMetadataResponse(List<ProviderMetadataResponse> providers) {
    }

    public record TelephonyConfigWarningResponse(Long configurationId, String name, String message) {
    }

    public record TelephonyConfigWarningsResponse(List<TelephonyConfigWarningResponse> warnings) {
    }

    public record DispositionCodesResponse(List<String> codes, List<String> endTaskReasonCodes) {
    }

    public record PhoneNumberCreateRequest(@NotBlank @Size(max = 255) String address,
            @Size(min = 1, max = 3) String countryCode, @Size(max = 64) String label, Long inboundWorkflowId,
            Long telephonyTrunkId, Boolean isActive, Boolean isDefaultCallerId, Map<String, Object> extraMetadata) {
    }

    public record PhoneNumberUpdateRequest(@Size(max = 64) String label, Long inboundWorkflowId,
            Boolean clearInboundWorkflow, Long telephonyTrunkId, Boolean clearTrunk, Boolean isActive, @Size(min = 1, max = 3) String countryCode,
            Map<String, Object> extraMetadata) {
    }

    @Schema(name = "PhoneNumberResponse")
    public record PhoneNumberResponse(long id, long telephonyConfigurationId, String address, String addressNormalized,
            String addressType, @Schema(nullable = true) String countryCode, @Schema(nullable = true) String label,
            @Schema(nullable = true) Long inboundWorkflowId, @Schema(nullable = true) Long telephonyTrunkId,
            boolean isActive, boolean isDefaultCallerId, Map<String, Object> extraMetadata,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant updatedAt) {

        static PhoneNumberResponse of(TelephonyNumber n) {
            return new PhoneNumberResponse(n.id(), n.configurationId(), n.address(), n.normalized(), n.addressType(),
                    n.countryCode(), n.label(), n.inboundWorkflowId(), n.trunkId(), n.active(), n.defaultCaller(),
                    n.extraMetadata(), n.createdAt(), n.updatedAt());
        }
    }

    public record PhoneNumberListResponse(List<PhoneNumberResponse> phoneNumbers) {
    }

    public record DeletedResponse(boolean success, String message) {
    }

    public record TrunkCreateRequest(@NotBlank @Size(max = 64) String name, Boolean enabled, Map<String, Object> settings) {
    }

    public record TrunkUpdateRequest(@Size(min = 1, max = 64) String name, Boolean enabled, Map<String, Object> settings) {
    }

    @Schema(name = "TrunkResponse")
    public record TrunkResponse(long id, long telephonyConfigurationId, String name, boolean enabled,
            Map<String, Object> settings,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant updatedAt) {

        static TrunkResponse of(dev.voiceagent.domain.telephony.Trunk t) {
            return new TrunkResponse(t.id(), t.configurationId(), t.name(), t.enabled(), t.settings(), t.createdAt(),
                    t.updatedAt());
        }
    }

    public record TrunkListResponse(List<TrunkResponse> trunks) {
    }

    private final Caller caller;
    private final TelephonyUseCases useCases;

    public TelephonyConfigurationResource(Caller caller, TelephonyUseCases useCases) {
        this.caller = caller;
        this.useCases = useCases;
    }

    private static final TelephonyProvidersMetadataResponse METADATA = new TelephonyProvidersMetadataResponse(
            java.util.Arrays.stream(Provider.values()).map(p -> new ProviderMetadataResponse(p.wireName(), p.displayName(),
                    p.supportsOutbound(), p.supportsTrunks(), p.fields().stream().map(f -> new ProviderFieldResponse(
                            f.name(), f.label(), f.required(), f.sensitive(), f.type())).toList())).toList());

    @GET
    @Path("/telephony-providers/metadata")
    @NonBlocking
    public TelephonyProvidersMetadataResponse metadata() {
        return METADATA;
    }

    @GET
    @Path("/telephony-config-warnings")
    public Uni<TelephonyConfigWarningsResponse> warnings() {
        return useCases.list().list(caller.principal()).map(views -> {
            List<TelephonyConfigWarningResponse> warnings = new java.util.ArrayList<>();
            if (views.isEmpty()) {
                warnings.add(new TelephonyConfigWarningResponse(null, null,
                        "No telephony configuration: add one to place calls"));
            }
            for (TelephonyConfigurationView v : views) {
                v.outboundBlockedReason().ifPresent(reason -> warnings.add(new TelephonyConfigWarningResponse(
                        v.configuration().id(), v.configuration().name(), reason)));
            }
            return new TelephonyConfigWarningsResponse(warnings);
        });
    }

    @GET
    @Path("/disposition-codes")
    public Uni<DispositionCodesResponse> dispositionCodes() {
        return useCases.dispositionCodes().codes(caller.principal())
                .map(codes -> new DispositionCodesResponse(codes, DispositionCodes.END_TASK_REASONS));
    }

    @GET
    @Path("/telephony-configs")
    public Uni<TelephonyConfigurationListResponse> list() {
        return useCases.list().list(caller.principal()).map(views -> new TelephonyConfigurationListResponse(
                views.stream().map(TelephonyConfigurationResponse::of).toList()));
    }

    @POST
    @Path("/telephony-configs")
    public Uni<TelephonyConfigurationResponse> create(@NotNull @Valid TelephonyConfigurationCreateRequest body) {
        Provider provider = provider(body.config(), true);
        return useCases.create().create(caller.principal(), body.name(), provider, fields(body.config()),
                Boolean.TRUE.equals(body.isDefaultOutbound())).map(TelephonyConfigurationResponse::of);
    }

    @GET
    @Path("/telephony-configs/{config_id}")
    public Uni<TelephonyConfigurationResponse> get(@PathParam("config_id") long configId) {
        return useCases.get().get(caller.principal(), configId).map(TelephonyConfigurationResponse::of);
    }

    @PUT
    @Path("/telephony-configs/{config_id}")
    public Uni<TelephonyConfigurationResponse> update(@PathParam("config_id") long configId,
            @NotNull @Valid TelephonyConfigurationUpdateRequest body) {
        Provider provider = body.config() == null ? null : provider(body.config(), false);
        return useCases.update().update(caller.principal(), configId, body.name(), provider,
                body.config() == null ? null : fields(body.config())).map(TelephonyConfigurationResponse::of);
    }

    @DELETE
    @Path("/telephony-configs/{config_id}")
    public Uni<DeletedResponse> delete(@PathParam("config_id") long configId) {
        return useCases.delete().delete(caller.principal(), configId)
                .replaceWith(new DeletedResponse(true, "Telephony configuration deleted"));
    }

    @POST
    @Path("/telephony-configs/{config_id}/set-default-outbound")
    public Uni<TelephonyConfigurationResponse> setDefault(@PathParam("config_id") long configId) {
        return useCases.setDefault().setDefault(caller.principal(), configId).map(TelephonyConfigurationResponse::of);
    }

    @POST
    @Path("/telephony-configs/{config_id}/reactivate")
    public Uni<TelephonyConfigurationResponse> reactivate(@PathParam("config_id") long configId) {
        return useCases.reactivate().reactivate(caller.principal(), configId).map(TelephonyConfigurationResponse::of);
    }

    @GET
    @Path("/telephony-configs/{config_id}/phone-numbers")
    public Uni<PhoneNumberListResponse> numbers(@PathParam("config_id") long configId) {
        return useCases.listNumbers().list(caller.principal(), configId)
                .map(list -> new PhoneNumberListResponse(list.stream().map(PhoneNumberResponse::of).toList()));
    }

    @POST
    @Path("/telephony-configs/{config_id}/phone-numbers")
    public Uni<PhoneNumberResponse> addNumber(@PathParam("config_id") long configId,
            @NotNull @Valid PhoneNumberCreateRequest body) {
        return useCases.addNumber().add(new AddPhoneNumberCommand(caller.principal(), configId, body.address(),
                body.countryCode(), body.label(), body.inboundWorkflowId(), body.telephonyTrunkId(),
                !Boolean.FALSE.equals(body.isActive()),
                Boolean.TRUE.equals(body.isDefaultCallerId()), body.extraMetadata())).map(PhoneNumberResponse::of);
    }

    @GET
    @Path("/telephony-configs/{config_id}/phone-numbers/{phone_number_id}")
    public Uni<PhoneNumberResponse> number(@PathParam("config_id") long configId,
            @PathParam("phone_number_id") long numberId) {
        return useCases.getNumber().get(caller.principal(), configId, numberId).map(PhoneNumberResponse::of);
    }

    @PUT
    @Path("/telephony-configs/{config_id}/phone-numbers/{phone_number_id}")
    public Uni<PhoneNumberResponse> updateNumber(@PathParam("config_id") long configId,
            @PathParam("phone_number_id") long numberId, @NotNull @Valid PhoneNumberUpdateRequest body) {
        return useCases.updateNumber().update(new UpdatePhoneNumberCommand(caller.principal(), configId, numberId,
                body.label(), body.inboundWorkflowId(), Boolean.TRUE.equals(body.clearInboundWorkflow()),
                body.telephonyTrunkId(), Boolean.TRUE.equals(body.clearTrunk()), body.isActive(),
                body.countryCode(), body.extraMetadata())).map(PhoneNumberResponse::of);
    }

    @DELETE
    @Path("/telephony-configs/{config_id}/phone-numbers/{phone_number_id}")
    public Uni<DeletedResponse> removeNumber(@PathParam("config_id") long configId,
            @PathParam("phone_number_id") long numberId) {
        return useCases.removeNumber().remove(caller.principal(), configId, numberId)
                .replaceWith(new DeletedResponse(true, "Phone number deleted"));
    }

    @POST
    @Path("/telephony-configs/{config_id}/phone-numbers/{phone_number_id}/set-default-caller")
    public Uni<PhoneNumberResponse> setDefaultCaller(@PathParam("config_id") long configId,
            @PathParam("phone_number_id") long numberId) {
        return useCases.setDefaultCaller().setDefaultCaller(caller.principal(), configId, numberId)
                .map(PhoneNumberResponse::of);
    }

    @GET
    @Path("/telephony-configs/{config_id}/trunks")
    public Uni<TrunkListResponse> trunks(@PathParam("config_id") long configId) {
        return useCases.listTrunks().list(caller.principal(), configId)
                .map(list -> new TrunkListResponse(list.stream().map(TrunkResponse::of).toList()));
    }

    @POST
    @Path("/telephony-configs/{config_id}/trunks")
    public Uni<TrunkResponse> addTrunk(@PathParam("config_id") long configId, @NotNull @Valid TrunkCreateRequest body) {
        return useCases.addTrunk().add(caller.principal(), configId, body.name(), !Boolean.FALSE.equals(body.enabled()),
                body.settings()).map(TrunkResponse::of);
    }

    @PUT
    @Path("/telephony-configs/{config_id}/trunks/{trunk_id}")
    public Uni<TrunkResponse> changeTrunk(@PathParam("config_id") long configId, @PathParam("trunk_id") long trunkId,
            @NotNull @Valid TrunkUpdateRequest body) {
        return useCases.changeTrunk().change(caller.principal(), configId, trunkId, body.name(), body.enabled(),
                body.settings()).map(TrunkResponse::of);
    }

    @DELETE
    @Path("/telephony-configs/{config_id}/trunks/{trunk_id}")
    public Uni<DeletedResponse> removeTrunk(@PathParam("config_id") long configId, @PathParam("trunk_id") long trunkId) {
        return useCases.removeTrunk().remove(caller.principal(), configId, trunkId)
                .replaceWith(new DeletedResponse(true, "Trunk deleted"));
    }

    /** config.provider names the provider; a missing or unknown one is a 422 at body.config.provider. */
    private static Provider provider(Map<String, Object> config, boolean required) {
        Object value = config.get("provider");
        if (value == null && !required) {
            return null;
        }
        return Provider.fromWireName(value instanceof String s ? s : null).orElseThrow(() -> new RequestValidationException(
                ValidationError.of(List.of("body", "config", "provider"), "Input should be one of: "
                        + String.join(", ", java.util.Arrays.stream(Provider.values()).map(Provider::wireName).toList()),
                        "union_tag_invalid", value)));
    }

    private static Map<String, Object> fields(Map<String, Object> config) {
        Map<String, Object> fields = new LinkedHashMap<>(config);
        fields.remove("provider");
        return fields;
    }
}
