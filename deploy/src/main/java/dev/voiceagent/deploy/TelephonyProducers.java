package dev.voiceagent.deploy;

import dev.voiceagent.adapters.postgres.shared.CredentialCipher;
import dev.voiceagent.application.telephony.AddPhoneNumberService;
import dev.voiceagent.application.telephony.AddPhoneNumberUseCase;
import dev.voiceagent.application.telephony.CreateTelephonyConfigurationService;
import dev.voiceagent.application.telephony.CreateTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.DeleteTelephonyConfigurationService;
import dev.voiceagent.application.telephony.DeleteTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.GetPhoneNumberService;
import dev.voiceagent.application.telephony.GetPhoneNumberUseCase;
import dev.voiceagent.application.telephony.GetTelephonyConfigurationService;
import dev.voiceagent.application.telephony.GetTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.ListDispositionCodesService;
import dev.voiceagent.application.telephony.ListDispositionCodesUseCase;
import dev.voiceagent.application.telephony.ListPhoneNumbersService;
import dev.voiceagent.application.telephony.ListPhoneNumbersUseCase;
import dev.voiceagent.application.telephony.ListTelephonyConfigurationsService;
import dev.voiceagent.application.telephony.ListTelephonyConfigurationsUseCase;
import dev.voiceagent.application.telephony.PhoneNumberNormalizer;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.ReactivateTelephonyConfigurationService;
import dev.voiceagent.application.telephony.ReactivateTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.RemovePhoneNumberService;
import dev.voiceagent.application.telephony.RemovePhoneNumberUseCase;
import dev.voiceagent.application.telephony.SetDefaultCallerService;
import dev.voiceagent.application.telephony.SetDefaultCallerUseCase;
import dev.voiceagent.application.telephony.SetDefaultOutboundService;
import dev.voiceagent.application.telephony.SetDefaultOutboundUseCase;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.telephony.UpdatePhoneNumberService;
import dev.voiceagent.application.telephony.UpdatePhoneNumberUseCase;
import dev.voiceagent.application.telephony.UpdateTelephonyConfigurationService;
import dev.voiceagent.application.telephony.UpdateTelephonyConfigurationUseCase;
import dev.voiceagent.application.telephony.TrunkRepository;
import dev.voiceagent.application.telephony.ListTrunksService;
import dev.voiceagent.application.telephony.ListTrunksUseCase;
import dev.voiceagent.application.telephony.AddTrunkService;
import dev.voiceagent.application.telephony.AddTrunkUseCase;
import dev.voiceagent.application.telephony.ChangeTrunkService;
import dev.voiceagent.application.telephony.ChangeTrunkUseCase;
import dev.voiceagent.application.telephony.RemoveTrunkService;
import dev.voiceagent.application.telephony.RemoveTrunkUseCase;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import dev.voiceagent.application.telephony.KnownWorkflows;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/** Composition root for telephony configurations and numbers. */
@ApplicationScoped
public class TelephonyProducers {

    private static final Logger LOG = Logger.getLogger(TelephonyProducers.class);

    /**
     * The AES-256 key for provider credentials: VOICEAGENT_TELEPHONY_CREDENTIALS_KEY (base64 of 32
     * bytes), or in local mode one generated on first start and kept in the database.
     */
    @Produces
    @Singleton
    @Startup
    CredentialCipher credentialCipher(@ConfigProperty(name = "voiceagent.telephony.credentials-key") Optional<String> configured,
            InstanceKeyring keyring) {
        String key = configured.filter(k -> !k.isBlank()).orElseGet(() -> {
            LOG.info("No voiceagent.telephony.credentials-key configured: using the instance key kept in the database");
            return keyring.get(InstanceKeyring.TELEPHONY_CREDENTIALS);
        });
        return new CredentialCipher(Base64.getDecoder().decode(key.strip()));
    }

    @Produces @Singleton
    ListTelephonyConfigurationsUseCase listConfigurations(TelephonyConfigurationRepository configurations) {
        return new ListTelephonyConfigurationsService(configurations);
    }

    @Produces @Singleton
    CreateTelephonyConfigurationUseCase createConfiguration(TelephonyConfigurationRepository configurations, Clock clock, TrunkRepository trunks) {
        return new CreateTelephonyConfigurationService(configurations, trunks, clock);
    }

    @Produces @Singleton
    GetTelephonyConfigurationUseCase getConfiguration(TelephonyConfigurationRepository configurations, TrunkRepository trunks) {
        return new GetTelephonyConfigurationService(configurations, trunks);
    }

    @Produces @Singleton
    UpdateTelephonyConfigurationUseCase updateConfiguration(TelephonyConfigurationRepository configurations, Clock clock, TrunkRepository trunks) {
        return new UpdateTelephonyConfigurationService(configurations, trunks, clock);
    }

    @Produces @Singleton
    DeleteTelephonyConfigurationUseCase deleteConfiguration(TelephonyConfigurationRepository configurations) {
        return new DeleteTelephonyConfigurationService(configurations);
    }

    @Produces @Singleton
    SetDefaultOutboundUseCase setDefaultOutbound(TelephonyConfigurationRepository configurations, TrunkRepository trunks) {
        return new SetDefaultOutboundService(configurations, trunks);
    }

    @Produces @Singleton
    ReactivateTelephonyConfigurationUseCase reactivateConfiguration(TelephonyConfigurationRepository configurations,
            Clock clock, TrunkRepository trunks) {
        return new ReactivateTelephonyConfigurationService(configurations, trunks, clock);
    }

    @Produces @Singleton
    ListPhoneNumbersUseCase listNumbers(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers) {
        return new ListPhoneNumbersService(configurations, numbers);
    }

    @Produces @Singleton
    KnownWorkflows knownWorkflows(dev.voiceagent.application.workflow.WorkflowRepository workflows) {
        return (organizationId, workflowId) -> workflows.find(organizationId, workflowId).map(Optional::isPresent);
    }

    @Produces @Singleton
    AddPhoneNumberUseCase addNumber(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers,
            TrunkRepository trunks, KnownWorkflows workflows, PhoneNumberNormalizer normalizer, Clock clock) {
        return new AddPhoneNumberService(configurations, numbers, trunks, workflows, normalizer, clock);
    }

    @Produces @Singleton
    GetPhoneNumberUseCase getNumber(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers) {
        return new GetPhoneNumberService(configurations, numbers);
    }

    @Produces @Singleton
    UpdatePhoneNumberUseCase updateNumber(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers,
            TrunkRepository trunks, KnownWorkflows workflows, Clock clock) {
        return new UpdatePhoneNumberService(configurations, numbers, trunks, workflows, clock);
    }

    @Produces @Singleton
    RemovePhoneNumberUseCase removeNumber(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers) {
        return new RemovePhoneNumberService(configurations, numbers);
    }

    @Produces @Singleton
    SetDefaultCallerUseCase setDefaultCaller(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers) {
        return new SetDefaultCallerService(configurations, numbers);
    }

    @Produces @Singleton
    dev.voiceagent.application.telephony.GetTelephonyConfigWarningsUseCase telephonyWarnings(
            TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers, PhoneNumberNormalizer normalizer) {
        return new dev.voiceagent.application.telephony.GetTelephonyConfigWarningsService(configurations, numbers,
                normalizer);
    }

    @Produces @Singleton
    ListTrunksUseCase listTrunks(TelephonyConfigurationRepository configurations, TrunkRepository trunks) {
        return new ListTrunksService(configurations, trunks);
    }

    @Produces @Singleton
    AddTrunkUseCase addTrunk(TelephonyConfigurationRepository configurations, TrunkRepository trunks, Clock clock) {
        return new AddTrunkService(configurations, trunks, clock);
    }

    @Produces @Singleton
    ChangeTrunkUseCase changeTrunk(TelephonyConfigurationRepository configurations, TrunkRepository trunks, Clock clock) {
        return new ChangeTrunkService(configurations, trunks, clock);
    }

    @Produces @Singleton
    RemoveTrunkUseCase removeTrunk(TelephonyConfigurationRepository configurations, TrunkRepository trunks) {
        return new RemoveTrunkService(configurations, trunks);
    }

    @Produces @Singleton
    ListDispositionCodesUseCase dispositionCodes(TelephonyConfigurationRepository configurations) {
        return new ListDispositionCodesService(configurations);
    }
}
