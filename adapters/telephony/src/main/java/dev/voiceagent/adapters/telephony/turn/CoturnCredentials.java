package dev.voiceagent.adapters.telephony.turn;

import dev.voiceagent.application.turn.TurnCredentialIssuer;
import dev.voiceagent.application.turn.TurnCredentials;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * coturn's REST API credentials (use-auth-secret / static-auth-secret): the username is
 * "<unix expiry>:<user id>" and the password base64(HMAC-SHA1(secret, username)), so the relay checks them
 * without asking this service. URIs: turn:host:port over UDP and TCP, and turns:host:tls-port when TLS is set.
 */
@Singleton
public class CoturnCredentials implements TurnCredentialIssuer {

    private final Optional<String> secret;
    private final Optional<String> host;
    private final int port;
    private final Optional<Integer> tlsPort;
    private final Duration ttl;
    private final boolean forceRelay;

    public CoturnCredentials(@ConfigProperty(name = "voiceagent.turn.secret") Optional<String> secret,
            @ConfigProperty(name = "voiceagent.turn.host") Optional<String> host,
            @ConfigProperty(name = "voiceagent.turn.port", defaultValue = "3478") int port,
            @ConfigProperty(name = "voiceagent.turn.tls-port") Optional<Integer> tlsPort,
            @ConfigProperty(name = "voiceagent.turn.ttl", defaultValue = "PT24H") Duration ttl,
            @ConfigProperty(name = "voiceagent.turn.force-relay", defaultValue = "false") boolean forceRelay) {
        this.forceRelay = forceRelay;
        this.secret = secret.filter(s -> !s.isBlank());
        this.host = host.filter(h -> !h.isBlank());
        this.port = port;
        this.tlsPort = tlsPort;
        this.ttl = ttl;
    }

    @Override
    public boolean configured() {
        return secret.isPresent() && host.isPresent();
    }

    @Override
    public boolean forceRelay() {
        return forceRelay;
    }

    @Override
    public Optional<TurnCredentials> issue(String userId, Instant now) {
        if (secret.isEmpty() || host.isEmpty()) {
            return Optional.empty();
        }
        String username = now.plus(ttl).getEpochSecond() + ":" + userId;
        List<String> uris = new ArrayList<>();
        uris.add("turn:" + host.get() + ":" + port);
        uris.add("turn:" + host.get() + ":" + port + "?transport=tcp");
        tlsPort.ifPresent(tls -> {
            uris.add("turns:" + host.get() + ":" + tls);
            uris.add("turns:" + host.get() + ":" + tls + "?transport=tcp");
        });
        return Optional.of(new TurnCredentials(username, password(secret.get(), username), ttl.toSeconds(), uris));
    }

    static String password(String secret, String username) {
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return Base64.getEncoder().encodeToString(mac.doFinal(username.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA1 is not available", e);
        }
    }
}
