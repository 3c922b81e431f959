package dev.voiceagent.deploy;

import dev.voiceagent.adapters.telephony.CallbackSigner;
import dev.voiceagent.application.auth.AuthenticateUseCase;
import dev.voiceagent.application.call.CallChanges;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.call.InboundCallService;
import dev.voiceagent.application.call.InitiateCallService;
import dev.voiceagent.application.call.InitiateCallUseCase;
import dev.voiceagent.application.call.TriggerCallService;
import dev.voiceagent.application.call.TriggerCallUseCase;
import dev.voiceagent.application.call.VoiceRuntime;
import dev.voiceagent.application.campaign.CampaignRepository;
import dev.voiceagent.application.campaign.ContactRepository;
import dev.voiceagent.application.campaign.CreateCampaignService;
import dev.voiceagent.application.campaign.CreateCampaignUseCase;
import dev.voiceagent.application.campaign.DispatchLedger;
import dev.voiceagent.application.campaign.GetCampaignDefaultsService;
import dev.voiceagent.application.campaign.GetCampaignDefaultsUseCase;
import dev.voiceagent.application.campaign.GetCampaignProgressService;
import dev.voiceagent.application.campaign.GetCampaignProgressUseCase;
import dev.voiceagent.application.campaign.ImportContactsService;
import dev.voiceagent.application.campaign.ImportContactsUseCase;
import dev.voiceagent.application.campaign.UpdateCampaignService;
import dev.voiceagent.application.campaign.UpdateCampaignUseCase;
import dev.voiceagent.application.dispatch.DispatchMetrics;
import dev.voiceagent.application.dnc.DoNotCallUseCases;
import dev.voiceagent.application.organization.OrganizationPreferencesRepository;
import dev.voiceagent.application.source.ContactSourceReader;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.telephony.PhoneNumberNormalizer;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;

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
    InitiateCallUseCase initiateCall(WorkflowRepository workflows, TelephonyConfigurationRepository configurations,
            PhoneNumberRepository numbers, PhoneNumberNormalizer normalizer, CallRepository calls, CallChanges changes,
            WorkflowRunRepository runs, OrganizationPreferencesRepository preferences,
            @Any Instance<CallGateway> gateways, Clock clock, VoiceAgentConfig config, CreditGate credits,
            DoNotCallUseCases.RequireCallableUseCase dnc) {
        return new InitiateCallService(workflows, configurations, numbers, normalizer, calls, changes, runs, preferences,
                gateways.stream().toList(), clock, ThreadLocalRandom.current(), config.calls().defaultOrgLimit(),
                config.calls().staleAfter(), credits, dnc);
    }

    @Produces
    @Singleton
    CreateCampaignUseCase createCampaign(WorkflowRepository workflows, TelephonyConfigurationRepository configurations,
            CallRepository calls, ContactSourceReader sources, PhoneNumberNormalizer normalizer,
            CampaignRepository campaigns, Clock clock, ObjectStore store, VoiceAgentConfig config) {
        return new CreateCampaignService(workflows, configurations, calls, sources, normalizer, campaigns, clock,
                config.calls().defaultOrgLimit(), store, config.campaigns().maxSourceBytes());
    }

    @Produces
    @Singleton
    ImportContactsUseCase importContacts(CampaignRepository campaigns, ContactRepository contacts,
            ContactSourceReader sources, TelephonyConfigurationRepository configurations,
            PhoneNumberNormalizer normalizer, DispatchLedger ledger, Clock clock, VoiceAgentConfig config,
            DispatchMetrics metrics) {
        return new ImportContactsService(campaigns, contacts, sources, configurations, normalizer, ledger, clock,
                config.dispatch().importLease(), metrics);
    }

    @Produces
    @Singleton
    GetCampaignDefaultsUseCase campaignDefaults(CallRepository calls, TelephonyConfigurationRepository configurations,
            CampaignRepository campaigns, VoiceAgentConfig config) {
        return new GetCampaignDefaultsService(calls, configurations, campaigns, config.calls().defaultOrgLimit());
    }

    @Produces
    @Singleton
    GetCampaignProgressUseCase campaignProgress(CampaignRepository campaigns, ContactRepository contacts,
            CallRepository calls, DispatchLedger ledger, Clock clock, VoiceAgentConfig config) {
        return new GetCampaignProgressService(campaigns, contacts, calls, ledger, clock,
                config.calls().defaultOrgLimit(), config.calls().staleAfter());
    }

    @Produces
    @Singleton
    UpdateCampaignUseCase updateCampaign(CampaignRepository campaigns, TelephonyConfigurationRepository configurations,
            CallRepository calls, Clock clock, VoiceAgentConfig config) {
        return new UpdateCampaignService(campaigns, configurations, calls, clock, config.calls().defaultOrgLimit());
    }

    @Produces
    @Singleton
    TriggerCallUseCase triggerCall(AuthenticateUseCase authenticate, WorkflowRepository workflows,
            InitiateCallUseCase initiate) {
        return new TriggerCallService(authenticate, workflows, initiate, ThreadLocalRandom.current());
    }

    @Produces
    @Singleton
    // bean types: InboundCallUseCase and FindCallRunUseCase
    InboundCallService inboundCalls(PhoneNumberRepository numbers,
            TelephonyConfigurationRepository configurations, PhoneNumberNormalizer normalizer,
            WorkflowRepository workflows, CallRepository calls, VoiceRuntime runtime,
            Clock clock, VoiceAgentConfig config, CreditGate credits) {
        return new InboundCallService(numbers, configurations, normalizer, workflows,
                calls, runtime, clock, ThreadLocalRandom.current(), config.calls().defaultOrgLimit(),
                config.calls().staleAfter(), credits);
    }
}
