package dev.voiceagent.deploy;

import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.campaign.ReconcileCallsService;
import dev.voiceagent.application.campaign.ReconcileCallsUseCase;
import dev.voiceagent.application.campaign.DispatchCampaignsService;
import dev.voiceagent.application.campaign.DispatchCampaignsUseCase;
import dev.voiceagent.application.campaign.DispatchLedger;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.workflow.WorkflowRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Composition root for the campaign dispatcher and the reconciliation of expired call leases. */
@ApplicationScoped
public class DispatchProducers {

    @Produces
    @Singleton
    DispatchCampaignsUseCase dispatchCampaigns(DispatchLedger ledger, WorkflowRepository workflows,
            TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers, CallRepository calls,
            dev.voiceagent.application.call.CallChanges changes, @Any Instance<CallGateway> gateways, Clock clock,
            @ConfigProperty(name = "voiceagent.calls.default-org-limit", defaultValue = "10") int defaultLimit,
            @ConfigProperty(name = "voiceagent.calls.stale-after", defaultValue = "PT2H") Duration staleAfter,
            @ConfigProperty(name = "voiceagent.dispatch.lease", defaultValue = "PT2M") Duration lease,
            dev.voiceagent.application.dispatch.DispatchMetrics metrics,
            dev.voiceagent.application.usage.CreditGate credits,
            dev.voiceagent.application.telephony.NumberTimeZones numberZones,
            @ConfigProperty(name = "voiceagent.calling-hours.default", defaultValue = "08:00-21:00") String hours) {
        return new DispatchCampaignsService(ledger, workflows, configurations, numbers, calls, changes,
                gateways.stream().toList(), clock, ThreadLocalRandom.current(), defaultLimit, staleAfter, lease, metrics,
                credits, numberZones, CallingHoursProducers.parse(hours));
    }

    @Produces
    @Singleton
    // bean types: GetAutoscaleMetricUseCase and CountReplicaCallsUseCase
    dev.voiceagent.application.health.CallMetricsService callMetrics(
            dev.voiceagent.application.health.CallCounts counts, Clock clock,
            @ConfigProperty(name = "voiceagent.calls.stale-after", defaultValue = "PT2H") Duration staleAfter) {
        return new dev.voiceagent.application.health.CallMetricsService(counts, clock, staleAfter);
    }

    @Produces
    @Singleton
    ReconcileCallsUseCase reconcileCalls(DispatchLedger ledger, TelephonyConfigurationRepository configurations,
            ProcessCallReportUseCase reports, @Any Instance<CallGateway> gateways, Clock clock,
            @ConfigProperty(name = "voiceagent.dispatch.lease", defaultValue = "PT2M") Duration lease,
            @ConfigProperty(name = "voiceagent.calls.stale-after", defaultValue = "PT2H") Duration staleAfter) {
        return new ReconcileCallsService(ledger, configurations, reports, gateways.stream().toList(), clock, lease,
                staleAfter);
    }
}
