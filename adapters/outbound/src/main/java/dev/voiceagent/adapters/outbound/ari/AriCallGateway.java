package dev.voiceagent.adapters.outbound.ari;

import static dev.voiceagent.adapters.outbound.ari.AriRest.params;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallGatewayException;
import dev.voiceagent.application.call.ExternalPbxCall;
import dev.voiceagent.application.call.OutboundCall;
import dev.voiceagent.application.call.Transfer;
import dev.voiceagent.application.call.VoiceRuntime;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.ExternalPbx;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Asterisk calls through ARI: a call is originated into the configuration's Stasis application (the ARI user's name)
 * with a channel id of ours naming its run and arguments naming its run, workflow and organization; what follows (its
 * media channel, the bridge, its outcome) is driven by the application's events ({@link AriCalls}). A number is dialled
 * as PJSIP/{number} unless it is a dial string already (PJSIP/..., SIP/..., e.g. through a trunk:
 * PJSIP/{number}@{trunk}). Hang-up destroys the channel; a transfer rings its destination into the application, which
 * takes the media channel's place in the call's bridge when it answers. A call that came through VICIdial (the
 * configuration's {@code external_pbx}) is handed back to it ({@link Vicidial}): transferred to an in-group by VICIdial,
 * and its lead updated and its call hung up at VICIdial when the conversation ends. Every request goes through the
 * address guard.
 */
@ApplicationScoped
public class AriCallGateway implements CallGateway {

    private static final Logger LOG = Logger.getLogger(AriCallGateway.class);
    static final int RING_SECONDS = 30;

    private final AriRest rest;
    private final VoiceRuntime runtime;
    private final Vicidial vicidial;

    public AriCallGateway(GuardedHttp http, VoiceRuntime runtime,
            @ConfigProperty(name = "voiceagent.ari.timeout", defaultValue = "PT10S") Duration timeout) {
        this.rest = new AriRest(http, timeout);
        this.runtime = runtime;
        this.vicidial = new Vicidial(http);
    }

    AriRest rest() {
        return rest;
    }

    @Override
    public Provider provider() {
        return Provider.ARI;
    }

    /** The dial string of a number or extension: as written when it names a technology, else PJSIP's. */
    static String endpoint(String to) {
        String address = to.strip();
        String upper = address.toUpperCase(Locale.ROOT);
        return upper.startsWith("PJSIP/") || upper.startsWith("SIP/") || upper.startsWith("IAX2/")
                || upper.startsWith("LOCAL/") ? address : "PJSIP/" + address;
    }

    private static ProviderConfiguration.Ari ari(ProviderConfiguration configuration) {
        return (ProviderConfiguration.Ari) configuration;
    }

    @Override
    public Uni<String> originate(OutboundCall call) {
        ProviderConfiguration.Ari ari = ari(call.configuration());
        if (runtime.streamToken(call.organizationId(), call.workflowId(), call.runId()).isEmpty()) {
            return Uni.createFrom().failure(new CallGatewayException("No voice runtime address is configured: the"
                    + " call would have no media", null));
        }
        if (ari.wsClientName().isBlank()) {
            return Uni.createFrom().failure(new CallGatewayException("The configuration has no ws_client_name:"
                    + " Asterisk could not carry the call's media", null));
        }
        String channel = AriIds.call(call.runId());
        String args = "workflow_run_id=" + call.runId() + ",workflow_id=" + call.workflowId() + ",organization_id="
                + call.organizationId();
        Map<String, String> query = params("endpoint", endpoint(call.to()), "app", ari.appName(), "appArgs", args,
                "channelId", channel, "timeout", String.valueOf(RING_SECONDS));
        if (call.from() != null && !call.from().isBlank()) {
            query.put("callerId", call.from());
        }
        return rest.object(ari, "POST", "/channels", query).map(created -> {
            String id = created.getString("id");
            if (id == null || id.isBlank()) {
                throw new CallGatewayException("Asterisk answered without the channel's id", null);
            }
            return id;
        });
    }

    @Override
    public Uni<Void> hangUp(ProviderConfiguration configuration, String providerCallId) {
        return rest.delete(ari(configuration), "/channels/" + providerCallId, params("reason", "normal"));
    }

    /**
     * Rings the destination (a number, an extension or a dial string) into the application; when it answers it is
     * bridged with the caller in place of the media channel, and if it never does the caller is hung up. No whisper:
     * Asterisk would have to speak it itself.
     */
    @Override
    public Uni<Void> transfer(ProviderConfiguration configuration, String providerCallId, Transfer transfer) {
        ProviderConfiguration.Ari ari = ari(configuration);
        if (transfer.externalPbx() != null && ari.externalPbx() != null) {
            return externalPbxTransfer(ari.externalPbx(), transfer);
        }
        String destination = transfer.destination().strip();
        if (destination.regionMatches(true, 0, "sip:", 0, 4)) {
            destination = "PJSIP/" + destination.substring(4);
        }
        return rest.object(ari, "POST", "/channels", params("endpoint", endpoint(destination), "app", ari.appName(),
                "appArgs", "transfer," + transfer.runId(), "channelId", AriIds.transfer(transfer.runId()), "timeout",
                String.valueOf(Math.max(5, transfer.timeoutSeconds())))).replaceWithVoid();
    }

    /**
     * A call that came through VICIdial goes back to it: the lead's fields written, then the call sent to the
     * destination in-group ({@code source}: the one it came from) by VICIdial itself; this service's leg then ends.
     */
    private Uni<Void> externalPbxTransfer(ExternalPbx pbx, Transfer transfer) {
        ExternalPbxCall call = transfer.externalPbx();
        if (!ExternalPbx.TYPE.equals(call.identity().get("type"))) {
            return Uni.createFrom().failure(new CallGatewayException("external_pbx_identity_mismatch: the call's"
                    + " identity is not VICIdial's", null));
        }
        return vicidial.updateLead(pbx, call.identity(), call.fields())
                .chain(() -> vicidial.transfer(pbx, call.identity(), transfer.destination()))
                .map(outcome -> {
                    if (!outcome.ok()) {
                        throw new CallGatewayException("VICIdial did not transfer the call: " + outcome.message(), null);
                    }
                    return null;
                });
    }

    /** VICIdial is given the lead's fields, then told to hang its call up (this service's leg ends on its own). */
    @Override
    public Uni<Void> endExternalPbxCall(ProviderConfiguration configuration, String providerCallId,
            ExternalPbxCall call) {
        ExternalPbx pbx = ari(configuration).externalPbx();
        if (pbx == null || !ExternalPbx.TYPE.equals(call.identity().get("type"))) {
            return Uni.createFrom().voidItem();
        }
        return vicidial.updateLead(pbx, call.identity(), call.fields())
                .chain(() -> vicidial.hangUp(pbx, call.identity()))
                .invoke(outcome -> {
                    if (!outcome.ok()) {
                        LOG.warnf("VICIdial did not hang up call %s: %s", providerCallId, outcome.message());
                    }
                })
                .replaceWithVoid();
    }

    @Override
    public Uni<Optional<CallStatus>> fetchStatus(ProviderConfiguration configuration, String providerCallId) {
        return rest.object(ari(configuration), "GET", "/channels/" + providerCallId, Map.of())
                .map(channel -> switch (channel.getString("state", "")) {
                    case "Up" -> Optional.of(CallStatus.IN_PROGRESS);
                    case "Ring", "Ringing", "Dialing", "Pre-ring", "Down" -> Optional.of(CallStatus.RINGING);
                    case "Busy" -> Optional.of(CallStatus.BUSY);
                    default -> Optional.<CallStatus>empty();
                })
                // gone: its outcome was told by its ChannelDestroyed, which is what this service waits for
                .onFailure(f -> f instanceof AriRest.Refusal r && r.status == 404)
                .recoverWithItem(Optional.empty());
    }
}
