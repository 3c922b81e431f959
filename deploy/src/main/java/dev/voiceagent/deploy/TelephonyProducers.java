package dev.voiceagent.deploy;

import dev.voiceagent.adapters.postgres.shared.CredentialCipher;
import dev.voiceagent.application.telephony.KnownWorkflows;
import dev.voiceagent.application.workflow.WorkflowRepository;
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

    @Produces @Singleton
    KnownWorkflows knownWorkflows(WorkflowRepository workflows) {
        return (organizationId, workflowId) -> workflows.find(organizationId, workflowId).map(Optional::isPresent);
    }
}
