package dev.voiceagent.application.voice.runtime;

import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallGatewayException;
import dev.voiceagent.application.call.CallRecord;
import dev.voiceagent.application.call.CallReport;
import dev.voiceagent.application.call.ExternalPbxCall;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.call.SignatureCheck;
import dev.voiceagent.application.call.Transfer;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * What the voice runtime asks of the carrier about a call it talks on, through the provider's own API (the media
 * stream alone cannot): hand the call to a person (transfer_call) and end it. The call is found from its run in the
 * call ledger, with the telephony configuration that placed or answered it.
 */
public class CarrierCalls {

    private final CallRepository calls;
    private final TelephonyConfigurationRepository configurations;
    private final ProcessCallReportUseCase reports;
    private final Map<Provider, CallGateway> gateways = new HashMap<>();

    public CarrierCalls(CallRepository calls, TelephonyConfigurationRepository configurations,
            ProcessCallReportUseCase reports, List<CallGateway> gateways) {
        this.calls = calls;
        this.configurations = configurations;
        this.reports = reports;
        gateways.forEach(g -> this.gateways.put(g.provider(), g));
    }

    /**
     * The call reached a voicemail (the session detected it and finished the run): its attempt ends as voicemail,
     * lasting {@code seconds}, as a carrier's own answering-machine detection would end it, so a campaign's
     * retry_on_voicemail applies; the carrier's later "completed" is then a late report. A call without a ledger
     * entry (a browser run) is left alone.
     */
    public Uni<Void> voicemail(long runId, int seconds) {
        return calls.findByRun(runId).chain(found -> found.isEmpty() ? Uni.createFrom().voidItem()
                : reports.process(new CallReport(found.get().provider(), runId, null, CallStatus.VOICEMAIL, seconds,
                        "runtime-voicemail-" + runId), SignatureCheck.VERIFIED_BY_ADAPTER).replaceWithVoid());
    }

    /** Hands the run's call to the transfer's destination; the carrier then ends the media stream. */
    public Uni<Void> transfer(long organizationId, Transfer transfer) {
        return call(organizationId, transfer.runId(), (gateway, found) -> gateway.transfer(found.configuration,
                found.providerCallId, transfer));
    }

    /** Ends the run's call at the carrier (a call without one in the ledger, or already over, is left alone). */
    public Uni<Void> hangUp(long organizationId, long runId) {
        return call(organizationId, runId, (gateway, found) -> gateway.hangUp(found.configuration,
                found.providerCallId));
    }

    /** Tells the external PBX the run's call came through that its conversation is over (fields, then hang-up). */
    public Uni<Void> endExternalPbxCall(long organizationId, long runId, ExternalPbxCall call) {
        return call(organizationId, runId, (gateway, found) -> gateway.endExternalPbxCall(found.configuration,
                found.providerCallId, call));
    }

    private static final class Found {
        final ProviderConfiguration configuration;
        final String providerCallId;

        Found(ProviderConfiguration configuration, String providerCallId) {
            this.configuration = configuration;
            this.providerCallId = providerCallId;
        }
    }

    private Uni<Void> call(long organizationId, long runId,
            BiFunction<CallGateway, Found, Uni<Void>> action) {
        return calls.findByRun(runId).chain(record -> {
            if (record.isEmpty() || record.get().attempt().providerCallId() == null
                    || record.get().configurationId() == null) {
                return Uni.createFrom().failure(new CallGatewayException("the call is not in the call ledger", null));
            }
            CallRecord call = record.get();
            CallGateway gateway = gateways.get(call.provider());
            if (gateway == null) {
                return Uni.createFrom().failure(new CallGatewayException(call.provider().wireName()
                        + " calls cannot be controlled here", null));
            }
            return configurations.find(organizationId, call.configurationId()).chain(view -> view.isEmpty()
                    ? Uni.createFrom().failure(new CallGatewayException("the call's telephony configuration no longer"
                            + " exists", null))
                    : action.apply(gateway, new Found(view.get().configuration().configuration(),
                            call.attempt().providerCallId())));
        });
    }
}
