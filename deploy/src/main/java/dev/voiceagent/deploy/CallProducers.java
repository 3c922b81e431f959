package dev.voiceagent.deploy;

import dev.voiceagent.adapters.telephony.CallbackSigner;
import dev.voiceagent.application.call.CallChanges;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.campaign.CampaignRepository;
import dev.voiceagent.application.campaign.DispatchLedger;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.campaign.DispatchCampaignsUseCase;
import dev.voiceagent.application.campaign.GetCampaignDefaultsService;
import dev.voiceagent.application.campaign.GetCampaignProgressService;
import dev.voiceagent.application.campaign.GetCampaignProgressUseCase;
import dev.voiceagent.application.campaign.UpdateCampaignService;
import dev.voiceagent.application.campaign.ListCampaignRunsService;
import dev.voiceagent.application.campaign.RedialCampaignService;
import dev.voiceagent.application.campaign.RedialCampaignUseCase;
import dev.voiceagent.application.campaign.ExportCampaignReportService;
import dev.voiceagent.application.campaign.ExportCampaignReportUseCase;
import dev.voiceagent.application.campaign.ListCampaignRunsUseCase;
import dev.voiceagent.application.campaign.UpdateCampaignUseCase;
import dev.voiceagent.application.campaign.GetCampaignDefaultsUseCase;
import dev.voiceagent.application.campaign.ContactRepository;
import dev.voiceagent.application.campaign.ImportContactsService;
import dev.voiceagent.application.campaign.ImportContactsUseCase;
import dev.voiceagent.application.campaign.PauseCampaignService;
import dev.voiceagent.application.campaign.PauseCampaignUseCase;
import dev.voiceagent.application.campaign.ResumeCampaignService;
import dev.voiceagent.application.campaign.ResumeCampaignUseCase;
import dev.voiceagent.application.campaign.StartCampaignService;
import dev.voiceagent.application.campaign.StartCampaignUseCase;
import dev.voiceagent.application.source.ContactSourceReader;
import dev.voiceagent.application.campaign.CreateCampaignService;
import dev.voiceagent.application.campaign.CreateCampaignUseCase;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.call.InitiateCallService;
import dev.voiceagent.application.call.InitiateCallUseCase;
import dev.voiceagent.application.call.ProcessCallReportService;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.telephony.PhoneNumberNormalizer;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.organization.OrganizationPreferencesRepository;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.RunCompletions;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Composition root for single calls and provider reports. */
@ApplicationScoped
public class CallProducers {

    @Produces
    @Singleton
    @Startup
    CallbackSigner callbackSigner(InstanceKeyring keyring) {
        String key = keyring.get(InstanceKeyring.CALLBACK_SIGNING);
        return new CallbackSigner(key.getBytes(StandardCharsets.US_ASCII));
    }

    @Produces
    @Singleton
    RunCompletions runCompletions(WorkflowRepository workflows) {
        return new RunCompletions(workflows);
    }

    @Produces
    @Singleton
    CallChanges callChanges(CallRepository calls, RunCompletions completions) {
        return new CallChanges(calls, completions);
    }

    @Produces
    @Singleton
    InitiateCallUseCase initiateCall(WorkflowRepository workflows, TelephonyConfigurationRepository configurations,
            PhoneNumberRepository numbers, PhoneNumberNormalizer normalizer, CallRepository calls, CallChanges changes,
            WorkflowRunRepository runs, OrganizationPreferencesRepository preferences,
            @Any Instance<CallGateway> gateways, Clock clock,
            @ConfigProperty(name = "voiceagent.calls.default-org-limit", defaultValue = "10") int defaultLimit,
            @ConfigProperty(name = "voiceagent.calls.stale-after", defaultValue = "PT2H") Duration staleAfter,
            dev.voiceagent.application.usage.CreditGate credits,
            dev.voiceagent.application.dnc.DoNotCallUseCases dnc) {
        return new InitiateCallService(workflows, configurations, numbers, normalizer, calls, changes, runs, preferences,
                gateways.stream().toList(),
                clock, ThreadLocalRandom.current(), defaultLimit, staleAfter, credits, dnc);
    }

    @Produces
    @Singleton
    CreateCampaignUseCase createCampaign(WorkflowRepository workflows, TelephonyConfigurationRepository configurations,
            CallRepository calls, ContactSourceReader sources, PhoneNumberNormalizer normalizer,
            CampaignRepository campaigns, Clock clock, ObjectStore store,
            @ConfigProperty(name = "voiceagent.calls.default-org-limit", defaultValue = "10") int defaultLimit,
            @ConfigProperty(name = "voiceagent.campaigns.max-source-bytes", defaultValue = "10485760") long maxSourceBytes) {
        return new CreateCampaignService(workflows, configurations, calls, sources, normalizer, campaigns, clock,
                defaultLimit, store, maxSourceBytes);
    }

    @Produces
    @Singleton
    ImportContactsUseCase importContacts(CampaignRepository campaigns, ContactRepository contacts,
            ContactSourceReader sources, TelephonyConfigurationRepository configurations,
            PhoneNumberNormalizer normalizer, DispatchLedger ledger, Clock clock,
            @ConfigProperty(name = "voiceagent.dispatch.import-lease", defaultValue = "PT1M") Duration lease,
            dev.voiceagent.application.dispatch.DispatchMetrics metrics) {
        return new ImportContactsService(campaigns, contacts, sources, configurations, normalizer, ledger, clock, lease,
                metrics);
    }

    @Produces
    @Singleton
    StartCampaignUseCase startCampaign(CampaignRepository campaigns, TelephonyConfigurationRepository configurations,
            Clock clock) {
        return new StartCampaignService(campaigns, configurations, clock);
    }

    @Produces
    @Singleton
    PauseCampaignUseCase pauseCampaign(CampaignRepository campaigns, Clock clock) {
        return new PauseCampaignService(campaigns, clock);
    }

    @Produces
    @Singleton
    ResumeCampaignUseCase resumeCampaign(CampaignRepository campaigns, TelephonyConfigurationRepository configurations,
            Clock clock) {
        return new ResumeCampaignService(campaigns, configurations, clock);
    }

    @Produces
    @Singleton
    GetCampaignDefaultsUseCase campaignDefaults(CallRepository calls, TelephonyConfigurationRepository configurations,
            CampaignRepository campaigns,
            @ConfigProperty(name = "voiceagent.calls.default-org-limit", defaultValue = "10") int defaultLimit) {
        return new GetCampaignDefaultsService(calls, configurations, campaigns, defaultLimit);
    }

    @Produces
    @Singleton
    GetCampaignProgressUseCase campaignProgress(CampaignRepository campaigns, ContactRepository contacts,
            CallRepository calls, DispatchLedger ledger, Clock clock,
            @ConfigProperty(name = "voiceagent.calls.default-org-limit", defaultValue = "10") int defaultLimit,
            @ConfigProperty(name = "voiceagent.calls.stale-after", defaultValue = "PT2H") Duration staleAfter) {
        return new GetCampaignProgressService(campaigns, contacts, calls, ledger, clock, defaultLimit, staleAfter);
    }

    @Produces
    @Singleton
    UpdateCampaignUseCase updateCampaign(CampaignRepository campaigns, TelephonyConfigurationRepository configurations,
            CallRepository calls, Clock clock,
            @ConfigProperty(name = "voiceagent.calls.default-org-limit", defaultValue = "10") int defaultLimit) {
        return new UpdateCampaignService(campaigns, configurations, calls, clock, defaultLimit);
    }

    @Produces
    @Singleton
    ListCampaignRunsUseCase campaignRuns(CampaignRepository campaigns, WorkflowRunRepository runs) {
        return new ListCampaignRunsService(campaigns, runs);
    }

    @Produces
    @Singleton
    ExportCampaignReportUseCase campaignReport(CampaignRepository campaigns, WorkflowRunRepository runs) {
        return new ExportCampaignReportService(campaigns, runs);
    }

    @Produces
    @Singleton
    RedialCampaignUseCase redialCampaign(CampaignRepository campaigns, ContactRepository contacts, Clock clock) {
        return new RedialCampaignService(campaigns, contacts, clock);
    }

    @Produces
    @Singleton
    // bean types: ProcessCallReportUseCase and AuthenticateCallReportUseCase
    ProcessCallReportService processReports(CallRepository calls, CallChanges changes,
            TelephonyConfigurationRepository configurations,
            CampaignRepository campaigns, Clock clock, DispatchCampaignsUseCase dispatcher,
            dev.voiceagent.application.dispatch.DispatchMetrics metrics) {
        return new ProcessCallReportService(calls, changes, configurations, campaigns, clock, dispatcher, metrics);
    }

    @Produces
    @Singleton
    dev.voiceagent.application.call.TriggerCallUseCase triggerCall(
            dev.voiceagent.application.auth.AuthenticateUseCase authenticate, WorkflowRepository workflows,
            dev.voiceagent.application.call.InitiateCallUseCase initiate) {
        return new dev.voiceagent.application.call.TriggerCallService(authenticate, workflows, initiate,
                ThreadLocalRandom.current());
    }

    @Produces
    @Singleton
    dev.voiceagent.application.call.InboundCallUseCase inboundCalls(PhoneNumberRepository numbers,
            TelephonyConfigurationRepository configurations, PhoneNumberNormalizer normalizer,
            WorkflowRepository workflows, CallRepository calls, dev.voiceagent.application.call.VoiceRuntime runtime,
            Clock clock, @ConfigProperty(name = "voiceagent.calls.default-org-limit", defaultValue = "10") int defaultLimit,
            @ConfigProperty(name = "voiceagent.calls.stale-after", defaultValue = "PT2H") Duration staleAfter) {
        return new dev.voiceagent.application.call.InboundCallService(numbers, configurations, normalizer, workflows,
                calls, runtime, clock, ThreadLocalRandom.current(), defaultLimit, staleAfter);
    }

    @Produces
    @Singleton
    dev.voiceagent.application.call.SimulateInboundCallUseCase simulateInbound(PhoneNumberRepository numbers,
            TelephonyConfigurationRepository configurations, PhoneNumberNormalizer normalizer,
            dev.voiceagent.application.call.InboundCallSimulator simulator) {
        return new dev.voiceagent.application.call.SimulateInboundCallService(numbers, configurations, normalizer,
                simulator);
    }

    @Produces
    @Singleton
    dev.voiceagent.application.dnc.DoNotCallService doNotCall(dev.voiceagent.application.dnc.DoNotCallRepository numbers,
            PhoneNumberNormalizer normalizer, ContactSourceReader csv, Clock clock) {
        return new dev.voiceagent.application.dnc.DoNotCallService(numbers, normalizer, csv, clock);
    }
}
