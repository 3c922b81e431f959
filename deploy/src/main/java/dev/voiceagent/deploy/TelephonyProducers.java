package dev.voiceagent.deploy;

import dev.voiceagent.adapters.outbound.ari.AriAccounts;
import dev.voiceagent.adapters.postgres.shared.CredentialCipher;
import dev.voiceagent.adapters.telephony.CarrierAccountChecks;
import dev.voiceagent.application.telephony.CarrierAccounts;
import dev.voiceagent.application.telephony.KnownWorkflows;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Base64;
import java.util.Optional;
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
    CredentialCipher credentialCipher(VoiceAgentConfig config, InstanceKeyring keyring) {
        String key = config.telephony().credentialsKey().filter(k -> !k.isBlank()).orElseGet(() -> {
            LOG.info("No voiceagent.telephony.credentials-key configured: using the instance key kept in the database");
            return keyring.get(InstanceKeyring.TELEPHONY_CREDENTIALS);
        });
        return new CredentialCipher(Base64.getDecoder().decode(key.strip()));
    }

    /**
     * Credentials checked with the carrier when saved: Asterisk's at the tenant's endpoint through the address guard
     * (the outbound adapter), every other carrier's at its own API (the telephony adapter).
     */
    @Produces
    @Singleton
    CarrierAccounts carrierAccounts(CarrierAccountChecks carriers, AriAccounts asterisk) {
        return configuration -> configuration instanceof ProviderConfiguration.Ari ari ? asterisk.verify(ari)
                : carriers.verify(configuration);
    }

    @Produces @Singleton
    KnownWorkflows knownWorkflows(WorkflowRepository workflows) {
        return (organizationId, workflowId) -> workflows.find(organizationId, workflowId).map(Optional::isPresent);
    }
}
