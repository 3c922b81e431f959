package dev.voiceagent.adapters.telephony;

import dev.voiceagent.application.call.VoiceRuntime;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The voice runtime's media websocket, as the reference lays it out: {runtime}/{workflow_id}/{organization_id}/
 * {run_id}/{token}, the token an HMAC of the run's ids with the installation's callback key (the media route checks
 * it with the same key before the upgrade, so a guessed URL streams nothing). The runtime is this service's own
 * media route (its public address, https -> wss, + /api/v1/telephony/ws) unless voiceagent.voice-runtime.url moves it.
 */
@Singleton
public class SignedVoiceRuntime implements VoiceRuntime {

    public static final String ROUTE = "/api/v1/telephony/ws";

    private final String base;
    private final CallbackSigner signer;

    public SignedVoiceRuntime(@ConfigProperty(name = "voiceagent.voice-runtime.url") Optional<String> configured,
            @ConfigProperty(name = "voiceagent.callbacks.base-url") String publicBase, CallbackSigner signer) {
        this.base = configured.map(String::strip).filter(u -> !u.isEmpty()).map(SignedVoiceRuntime::trim)
                .orElseGet(() -> websocket(trim(publicBase.strip())) + ROUTE);
        this.signer = signer;
    }

    /** https -> wss, http -> ws. */
    static String websocket(String url) {
        return url.startsWith("https://") ? "wss://" + url.substring(8)
                : url.startsWith("http://") ? "ws://" + url.substring(7) : url;
    }

    private static String trim(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    @Override
    public Optional<String> streamUrl(long organizationId, long workflowId, long runId) {
        return Optional.of(base + "/" + workflowId + "/" + organizationId + "/" + runId + "/"
                + token(organizationId, workflowId, runId));
    }

    @Override
    public Optional<String> streamToken(long organizationId, long workflowId, long runId) {
        return Optional.of(token(organizationId, workflowId, runId));
    }

    @Override
    public boolean accepts(long organizationId, long workflowId, long runId, String token) {
        return signer.verify(workflowId + ":" + organizationId + ":" + runId, token);
    }

    private String token(long organizationId, long workflowId, long runId) {
        return signer.sign(workflowId + ":" + organizationId + ":" + runId);
    }
}
