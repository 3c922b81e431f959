package dev.voiceagent.deploy;

import dev.voiceagent.application.call.CallChanges;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.campaign.DispatchCampaignsService;
import dev.voiceagent.application.campaign.DispatchCampaignsUseCase;
import dev.voiceagent.application.campaign.DispatchLedger;
import dev.voiceagent.application.campaign.DispatchSettings;
import dev.voiceagent.application.campaign.ReconcileCallsService;
import dev.voiceagent.application.campaign.ReconcileCallsUseCase;
import dev.voiceagent.application.dispatch.DispatchMetrics;
import dev.voiceagent.application.health.CallCounts;
import dev.voiceagent.application.health.CallMetricsService;
import dev.voiceagent.application.telephony.NumberTimeZones;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.workflow.WorkflowRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;

/** Composition root for the campaign dispatcher and the reconciliation of expired call leases. */
@ApplicationScoped
public class DispatchProducers {

    @Produces
    @Singleton
    DispatchCampaignsUseCase dispatchCampaigns(DispatchLedger ledger, WorkflowRepository workflows,
            TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers, CallRepository calls,
            CallChanges changes, @Any Instance<CallGateway> gateways, Clock clock,
            VoiceAgentConfig config, DispatchMetrics metrics, CreditGate credits, NumberTimeZones numberZones) {
        return new DispatchCampaignsService(ledger, workflows, configurations, numbers, calls, changes,
                gateways.stream().toList(), clock, ThreadLocalRandom.current(), dispatchSettings(config), metrics,
                credits, numberZones);
    }

    static DispatchSettings dispatchSettings(VoiceAgentConfig config) {
        return new DispatchSettings(config.calls().defaultOrgLimit(), config.calls().staleAfter(),
                config.dispatch().lease(), CallingHoursProducers.parse(config.callingHours().window()));
    }

    @Produces
    @Singleton
    // bean types: GetAutoscaleMetricUseCase and CountReplicaCallsUseCase
    CallMetricsService callMetrics(CallCounts counts, Clock clock, VoiceAgentConfig config) {
        return new CallMetricsService(counts, clock, config.calls().staleAfter());
    }

    @Produces
    @Singleton
    ReconcileCallsUseCase reconcileCalls(DispatchLedger ledger, TelephonyConfigurationRepository configurations,
            ProcessCallReportUseCase reports, @Any Instance<CallGateway> gateways, Clock clock,
            VoiceAgentConfig config) {
        return new ReconcileCallsService(ledger, configurations, reports, gateways.stream().toList(), clock,
                config.dispatch().lease(), config.calls().staleAfter());
    }
}
