package dev.voiceagent.adapters.rest.telephony;

import dev.voiceagent.application.telephony.GetTelephonyConfigWarningsUseCase;
import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import dev.voiceagent.application.telephony.CreateTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.DeleteTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.GetTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.ListDispositionCodesUseCase;
import dev.voiceagent.application.telephony.ListTelephonyConfigurationsUseCase;
import dev.voiceagent.application.telephony.ReactivateTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.SetDefaultOutboundUseCase;
import dev.voiceagent.application.telephony.PhoneNumberView;
import dev.voiceagent.application.telephony.TelephonyConfigurationDetails;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.application.telephony.TrunkView;
import dev.voiceagent.application.telephony.UpdateTelephonyConfigurationUseCase;
import dev.voiceagent.domain.telephony.DispositionCodes;
import dev.voiceagent.domain.telephony.OutboundReadinessPolicy;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfigurations;
import dev.voiceagent.domain.telephony.SetupStep;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Telephony configurations, provider metadata, warnings and disposition codes; a configuration's phone numbers and
 * trunks are {@link PhoneNumberResource} and {@link TrunkResource}.
 */
@Path("/api/v1/organizations")
public class TelephonyConfigurationResource {

    public record TelephonyConfigurationCreateRequest(@NotBlank @Size(max = 64) String name, Boolean isDefaultOutbound,
            @NotNull Map<String, Object> config) {
    }

    public record TelephonyConfigurationUpdateRequest(@Size(min = 1, max = 64) String name, Map<String, Object> config) {
    }

    private static final String DATE_TIME = "date-time";

    /** A configuration in the list: what its row shows. */
    @Schema(name = "TelephonyConfigurationListItem")
    public record TelephonyConfigurationListItem(long id, String name, String provider,
            @Schema(enumeration = {"api", "sip"}) String connectivity, boolean isDefaultOutbound, boolean inactive,
            @Schema(nullable = true, type = SchemaType.STRING, format = DATE_TIME, implementation = String.class) Instant inactiveSince,
            @Schema(nullable = true) String inactiveReason, int phoneNumberCount, boolean isReadyForOutbound,
            @Schema(nullable = true) String outboundBlockedReason,
            @Schema(type = SchemaType.STRING, format = DATE_TIME, implementation = String.class) Instant createdAt,
            @Schema(type = SchemaType.STRING, format = DATE_TIME, implementation = String.class) Instant updatedAt,
            @Schema(description = "The provider and its fields, secrets masked (all but the last 4 characters)")
            Map<String, Object> config) {

        static TelephonyConfigurationListItem of(TelephonyConfigurationView v) {
            var c = v.configuration();
            return new TelephonyConfigurationListItem(c.id(), c.name(), c.provider().wireName(),
                    c.provider().connectivity(), c.defaultOutbound(), !c.active(), c.inactiveSince(), c.inactiveReason(),
                    v.activeNumbers(), v.readyForOutbound(), v.outboundBlockedReason().orElse(null), c.createdAt(),
                    c.updatedAt(), maskedConfig(c));
        }
    }

    /** One configuration's page: credentials (masked), its set-up checklist and its trunks. */
    @Schema(name = "TelephonyConfigurationDetail")
    public record TelephonyConfigurationResponse(long id, String name, String provider,
            @Schema(enumeration = {"api", "sip"}) String connectivity, boolean isDefaultOutbound, boolean inactive,
            @Schema(nullable = true, type = SchemaType.STRING, format = DATE_TIME, implementation = String.class) Instant inactiveSince,
            @Schema(nullable = true) String inactiveReason,
            @Schema(description = "The provider's fields, secrets masked (all but the last 4 characters); a masked"
                    + " value sent back keeps the stored secret") Map<String, Object> credentials,
            @Schema(nullable = true, description = "SIP connection details this service hosts for the provider: none")
            SipConnectivityDetails sipConnectivity,
            ProviderSetupChecklist setupChecklist, boolean supportsTrunks, List<TrunkResponse> trunks,
            int phoneNumberCount, boolean isReadyForOutbound, @Schema(nullable = true) String outboundBlockedReason,
            @Schema(type = SchemaType.STRING, format = DATE_TIME, implementation = String.class) Instant createdAt,
            @Schema(type = SchemaType.STRING, format = DATE_TIME, implementation = String.class) Instant updatedAt,
            @Schema(description = "The provider and its fields, secrets masked") Map<String, Object> config) {

        static TelephonyConfigurationResponse of(TelephonyConfigurationDetails details) {
            TelephonyConfigurationView v = details.view();
            var c = v.configuration();
            List<SetupStep> steps = details.checklist();
            return new TelephonyConfigurationResponse(c.id(), c.name(), c.provider().wireName(),
                    c.provider().connectivity(), c.defaultOutbound(), !c.active(), c.inactiveSince(), c.inactiveReason(),
                    ProviderConfigurations.masked(c.provider(), c.configuration().fields()), null,
                    ProviderSetupChecklist.of(steps, c.provider().docsUrl()), c.provider().supportsTrunks(),
                    details.trunks().stream().map(TrunkResponse::of).toList(), v.activeNumbers(), v.readyForOutbound(),
                    v.outboundBlockedReason().orElse(null), c.createdAt(), c.updatedAt(), maskedConfig(c));
        }
    }

    private static Map<String, Object> maskedConfig(TelephonyConfiguration c) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("provider", c.provider().wireName());
        config.putAll(ProviderConfigurations.masked(c.provider(), c.configuration().fields()));
        return config;
    }

    @Schema(name = "SIPConnectivityDetails")
    public record SipConnectivityDetails(String providerDisplayName, List<SipRegionDetails> regions) {
    }

    @Schema(name = "SIPRegionDetails")
    public record SipRegionDetails(String region, List<SipTransportDetails> inboundTransports, String outboundOriginIp) {
    }

    @Schema(name = "SIPTransportDetails")
    public record SipTransportDetails(String transport, String hostname, int port, String uri) {
    }

    @Schema(name = "SetupStep")
    public record SetupStepResponse(String key, String title, String description, boolean complete,
            boolean blocksOutbound) {
    }

    /** Readiness derived from the steps: never ready while a blocking step is open. */
    @Schema(name = "ProviderSetupChecklist")
    public record ProviderSetupChecklist(boolean readyForOutbound, @Schema(nullable = true) String outboundBlockedReason,
            List<SetupStepResponse> steps, @Schema(nullable = true) String docsUrl) {

        static ProviderSetupChecklist of(List<SetupStep> steps, String docsUrl) {
            var blocked = OutboundReadinessPolicy.blockedReason(steps);
            return new ProviderSetupChecklist(blocked.isEmpty(), blocked.orElse(null), steps.stream()
                    .map(step -> new SetupStepResponse(step.key(), step.title(), step.description(), step.complete(),
                            step.blocksOutbound())).toList(), docsUrl);
        }
    }

    public record TelephonyConfigurationListResponse(List<TelephonyConfigurationListItem> configurations) {
    }

    @Schema(name = "TelephonyProviderUIOption")
    public record ProviderFieldOption(String value, String label) {
    }

    @Schema(name = "TelephonyProviderUICondition")
    public record ProviderFieldCondition(String field, Object equals) {
    }

    @Schema(name = "TelephonyProviderUIField")
    public record ProviderFieldResponse(String name, String label, String type, boolean required, boolean sensitive,
            @Schema(nullable = true) String description, @Schema(nullable = true) String placeholder,
            @Schema(nullable = true) List<ProviderFieldOption> options,
            @Schema(nullable = true, description = "Shown only when another field has a value: no field of this"
                    + " service's forms depends on another") ProviderFieldCondition visibleWhen,
            @Schema(nullable = true) String section) {
    }

    @Schema(name = "TelephonyProviderMetadata")
    public record ProviderMetadataResponse(String provider, String displayName,
            @Schema(enumeration = {"api", "sip"}) String connectivity, boolean supportsOutbound,
            boolean supportsTrunks, List<ProviderFieldResponse> fields, @Schema(nullable = true) String docsUrl) {
    }

    public record TelephonyProvidersMetadataResponse(List<ProviderMetadataResponse> providers) {
    }

    public record TelephonyConfigWarningResponse(Long configurationId, String name, Long phoneNumberId, String message) {
    }

    @Schema(name = "TelephonyConfigWarningsResponse")
    public record TelephonyConfigWarningsResponse(long telnyxMissingWebhookPublicKeyCount,
            long vonageMissingSignatureSecretCount, List<TelephonyConfigWarningResponse> warnings) {
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

    @Schema(name = "ProviderSyncStatus")
    public record ProviderSyncStatus(boolean ok, @Schema(nullable = true) String message) {
    }

    @Schema(name = "PhoneNumberResponse")
    public record PhoneNumberResponse(long id, long telephonyConfigurationId, String address, String addressNormalized,
            @Schema(enumeration = {"pstn", "sip_uri", "sip_extension"}) String addressType,
            @Schema(nullable = true) String countryCode, @Schema(nullable = true) String label,
            @Schema(nullable = true) Long inboundWorkflowId, @Schema(nullable = true) String inboundWorkflowName,
            @Schema(nullable = true) Long telephonyTrunkId,
            boolean isActive, boolean isDefaultCallerId, Map<String, Object> extraMetadata,
            @Schema(type = SchemaType.STRING, format = DATE_TIME, implementation = String.class) Instant createdAt,
            @Schema(type = SchemaType.STRING, format = DATE_TIME, implementation = String.class) Instant updatedAt,
            @Schema(nullable = true, description = "The result of pushing the change to the provider; null: this"
                    + " service configures no inbound routing at providers, so nothing was pushed")
            ProviderSyncStatus providerSync) {

        static PhoneNumberResponse of(PhoneNumberView view) {
            TelephonyNumber n = view.number();
            return new PhoneNumberResponse(n.id(), n.configurationId(), n.address(), n.normalized(), n.addressType(),
                    n.countryCode(), n.label(), n.inboundWorkflowId(), view.inboundWorkflowName(), n.trunkId(), n.active(),
                    n.defaultCaller(), n.extraMetadata(), n.createdAt(), n.updatedAt(), null);
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
            Map<String, Object> settings, long phoneNumberCount,
            @Schema(type = SchemaType.STRING, format = DATE_TIME, implementation = String.class) Instant createdAt,
            @Schema(type = SchemaType.STRING, format = DATE_TIME, implementation = String.class) Instant updatedAt) {

        static TrunkResponse of(TrunkView view) {
            var t = view.trunk();
            return new TrunkResponse(t.id(), t.configurationId(), t.name(), t.enabled(), t.settings(),
                    view.phoneNumberCount(), t.createdAt(), t.updatedAt());
        }
    }

    public record TrunkListResponse(List<TrunkResponse> trunks) {
    }

    private final Caller caller;
    private final ListTelephonyConfigurationsUseCase list;
    private final CreateTelephonyConfigurationUseCase create;
    private final GetTelephonyConfigurationUseCase get;
    private final UpdateTelephonyConfigurationUseCase update;
    private final DeleteTelephonyConfigurationUseCase delete;
    private final SetDefaultOutboundUseCase setDefault;
    private final ReactivateTelephonyConfigurationUseCase reactivate;
    private final ListDispositionCodesUseCase dispositionCodes;
    private final GetTelephonyConfigWarningsUseCase warnings;

    public TelephonyConfigurationResource(Caller caller, ListTelephonyConfigurationsUseCase list,
            CreateTelephonyConfigurationUseCase create, GetTelephonyConfigurationUseCase get,
            UpdateTelephonyConfigurationUseCase update, DeleteTelephonyConfigurationUseCase delete,
            SetDefaultOutboundUseCase setDefault, ReactivateTelephonyConfigurationUseCase reactivate,
            ListDispositionCodesUseCase dispositionCodes, GetTelephonyConfigWarningsUseCase warnings) {
        this.caller = caller;
        this.list = list;
        this.create = create;
        this.get = get;
        this.update = update;
        this.delete = delete;
        this.setDefault = setDefault;
        this.reactivate = reactivate;
        this.dispositionCodes = dispositionCodes;
        this.warnings = warnings;
    }

    private static final TelephonyProvidersMetadataResponse METADATA = new TelephonyProvidersMetadataResponse(
            Arrays.stream(Provider.values()).map(p -> new ProviderMetadataResponse(p.wireName(), p.displayName(),
                    p.connectivity(), p.supportsOutbound(), p.supportsTrunks(), p.fields().stream()
                            .map(f -> new ProviderFieldResponse(f.name(), f.label(), f.type(), f.required(), f.sensitive(),
                                    f.description(), f.placeholder(), "boolean".equals(f.type())
                                            ? List.of(new ProviderFieldOption("true", "On"), new ProviderFieldOption("false", "Off"))
                                            : null, null, f.section())).toList(), p.docsUrl())).toList());

    @GET
    @Path("/telephony-providers/metadata")
    @NonBlocking
    public TelephonyProvidersMetadataResponse metadata() {
        return METADATA;
    }

    @GET
    @Path("/telephony-config-warnings")
    public Uni<TelephonyConfigWarningsResponse> warnings() {
        return warnings.warnings(caller.principal()).map(w -> new TelephonyConfigWarningsResponse(
                w.telnyxMissingWebhookPublicKey(), w.vonageMissingSignatureSecret(), w.warnings().stream()
                        .map(x -> new TelephonyConfigWarningResponse(x.configurationId(), x.configurationName(),
                                x.phoneNumberId(), x.message())).toList()));
    }

    @GET
    @Path("/disposition-codes")
    public Uni<DispositionCodesResponse> dispositionCodes() {
        return dispositionCodes.codes(caller.principal())
                .map(codes -> new DispositionCodesResponse(codes, DispositionCodes.END_TASK_REASONS));
    }

    @GET
    @Path("/telephony-configs")
    public Uni<TelephonyConfigurationListResponse> list() {
        return list.list(caller.principal()).map(views -> new TelephonyConfigurationListResponse(
                views.stream().map(TelephonyConfigurationListItem::of).toList()));
    }

    @POST
    @Path("/telephony-configs")
    public Uni<TelephonyConfigurationResponse> create(@NotNull @Valid TelephonyConfigurationCreateRequest body) {
        Provider provider = provider(body.config(), true);
        return create.create(caller.principal(), body.name(), provider, fields(body.config()),
                Boolean.TRUE.equals(body.isDefaultOutbound())).map(TelephonyConfigurationResponse::of);
    }

    @GET
    @Path("/telephony-configs/{config_id}")
    public Uni<TelephonyConfigurationResponse> get(@PathParam("config_id") long configId) {
        return get.get(caller.principal(), configId).map(TelephonyConfigurationResponse::of);
    }

    @PUT
    @Path("/telephony-configs/{config_id}")
    public Uni<TelephonyConfigurationResponse> update(@PathParam("config_id") long configId,
            @NotNull @Valid TelephonyConfigurationUpdateRequest body) {
        Provider provider = body.config() == null ? null : provider(body.config(), false);
        return update.update(caller.principal(), configId, body.name(), provider,
                body.config() == null ? null : fields(body.config())).map(TelephonyConfigurationResponse::of);
    }

    @DELETE
    @Path("/telephony-configs/{config_id}")
    public Uni<DeletedResponse> delete(@PathParam("config_id") long configId) {
        return delete.delete(caller.principal(), configId)
                .replaceWith(new DeletedResponse(true, "Telephony configuration deleted"));
    }

    @POST
    @Path("/telephony-configs/{config_id}/set-default-outbound")
    public Uni<TelephonyConfigurationResponse> setDefault(@PathParam("config_id") long configId) {
        return setDefault.setDefault(caller.principal(), configId).map(TelephonyConfigurationResponse::of);
    }

    @POST
    @Path("/telephony-configs/{config_id}/reactivate")
    public Uni<TelephonyConfigurationResponse> reactivate(@PathParam("config_id") long configId) {
        return reactivate.reactivate(caller.principal(), configId).map(TelephonyConfigurationResponse::of);
    }

    /** config.provider names the provider; a missing or unknown one is a 422 at body.config.provider. */
    private static Provider provider(Map<String, Object> config, boolean required) {
        Object value = config.get("provider");
        if (value == null && !required) {
            return null;
        }
        return Provider.fromWireName(value instanceof String s ? s : null).orElseThrow(() -> new RequestValidationException(
                ValidationError.of(List.of("body", "config", "provider"), "Input should be one of: "
                        + String.join(", ", Arrays.stream(Provider.values()).map(Provider::wireName).toList()),
                        "union_tag_invalid", value)));
    }

    private static Map<String, Object> fields(Map<String, Object> config) {
        Map<String, Object> fields = new LinkedHashMap<>(config);
        fields.remove("provider");
        return fields;
    }
}
