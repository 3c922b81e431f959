package dev.voiceagent.adapters.telephony;

import dev.voiceagent.application.call.VoiceRuntime;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The voice runtime's media websocket, as the reference lays it out: {runtime}/{workflow_id}/{organization_id}/
 * {run_id}/{token}, the token an HMAC of the run's ids with the installation's callback key (the runtime checks
 * it with the same key, so a guessed URL streams nothing).
 */
@Singleton
public class SignedVoiceRuntime implements VoiceRuntime {

    private final Optional<String> base;
    private final CallbackSigner signer;

    public SignedVoiceRuntime(@ConfigProperty(name = "voiceagent.voice-runtime.url") Optional<String> base,
            CallbackSigner signer) {
        this.base = base.map(String::strip).filter(u -> !u.isEmpty())
                .map(u -> u.endsWith("/") ? u.substring(0, u.length() - 1) : u);
        this.signer = signer;
    }

    @Override
    public Optional<String> streamUrl(long organizationId, long workflowId, long runId) {
        return base.map(url -> url + "/" + workflowId + "/" + organizationId + "/" + runId + "/"
                + signer.sign(workflowId + ":" + organizationId + ":" + runId));
    }
}
