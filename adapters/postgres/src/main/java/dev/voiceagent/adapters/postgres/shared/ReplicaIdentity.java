package dev.voiceagent.adapters.postgres.shared;

import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * This process among the replicas: voiceagent.replica-id, else the host name (the pod's name on
 * Kubernetes) with a per-process suffix, so two processes on one host are told apart too.
 */
@ApplicationScoped
public class ReplicaIdentity {

    private final String id;

    public ReplicaIdentity(@ConfigProperty(name = "voiceagent.replica-id") Optional<String> configured) {
        byte[] suffix = new byte[3];
        new SecureRandom().nextBytes(suffix);
        String host = Optional.ofNullable(System.getenv("HOSTNAME")).filter(h -> !h.isBlank()).orElse("replica");
        this.id = configured.filter(c -> !c.isBlank()).orElse(host + "-" + HexFormat.of().formatHex(suffix));
    }

    public String id() {
        return id;
    }
}
