package dev.voiceagent.application.auth;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.apikey.ApiKeyRepository;
import dev.voiceagent.application.servicekey.ServiceKeyRepository;
import dev.voiceagent.application.shared.AuthenticationException;
import dev.voiceagent.domain.apikey.ApiKey;
import dev.voiceagent.domain.apikey.ApiKeySecret;
import dev.voiceagent.domain.servicekey.ServiceKey;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Instant;

/**
 * X-API-Key wins when both headers are sent. Keys are looked up by hash on every request (no cache,
 * so an archive is seen at once by every replica); last_used_at is written at most once a minute.
 */
@Singleton
public class AuthenticateService implements AuthenticateUseCase {

    static final String MISSING = "Authorization header required";
    static final String BAD_KEY = "Invalid or expired API key";
    static final String BAD_TOKEN = "Invalid or expired token";
    static final String NO_USER = "User not found";
    static final String NO_ORGANIZATION = "User has no organization";

    private final ApiKeyRepository apiKeys;
    private final ServiceKeyRepository serviceKeys;
    private final AccountRepository accounts;
    private final TokenService tokens;
    private final Clock clock;

    public AuthenticateService(ApiKeyRepository apiKeys, ServiceKeyRepository serviceKeys, AccountRepository accounts,
            TokenService tokens, Clock clock) {
        this.apiKeys = apiKeys;
        this.serviceKeys = serviceKeys;
        this.accounts = accounts;
        this.tokens = tokens;
        this.clock = clock;
    }

    @Override
    public Uni<Principal> authenticate(Credentials credentials) {
        if (credentials.apiKey() != null) {
            return byApiKey(credentials.apiKey().strip());
        }
        if (credentials.authorization() != null && !credentials.authorization().isBlank()) {
            return byToken(bearerValue(credentials.authorization()));
        }
        return fail(MISSING);
    }

    private Uni<Principal> byApiKey(String raw) {
        if (!ApiKeySecret.looksLikeKey(raw)) {
            return fail(BAD_KEY);
        }
        Instant now = clock.instant();
        ApiKeySecret secret = new ApiKeySecret(raw);
        if (secret.serviceKey()) {
            return byServiceKey(secret, now);
        }
        return apiKeys.findUsableByHash(secret.hash()).chain(found -> {
            if (found.isEmpty() || found.get().createdBy() == null) {
                return fail(BAD_KEY);
            }
            ApiKey key = found.get();
            Principal principal = new Principal(key.createdBy(), key.organizationId(), Principal.Method.API_KEY,
                    "api_key:" + key.id());
            if (!key.lastUseIsStale(now)) {
                return Uni.createFrom().item(principal);
            }
            return apiKeys.recordUse(key.id(), now).replaceWith(principal);
        });
    }

    /** A service key: refused once it has expired or been archived, on every replica's next request. */
    private Uni<Principal> byServiceKey(ApiKeySecret secret, Instant now) {
        return serviceKeys.findUsableByHash(secret.hash(), now).chain(found -> {
            if (found.isEmpty()) {
                return fail(BAD_KEY);
            }
            ServiceKey key = found.get();
            Principal principal = new Principal(key.createdBy(), key.organizationId(), Principal.Method.SERVICE_KEY,
                    "service_key:" + key.id());
            if (key.lastUsedAt() != null && key.lastUsedAt().plus(ApiKey.LAST_USED_RESOLUTION).isAfter(now)) {
                return Uni.createFrom().item(principal);
            }
            return serviceKeys.recordUse(key.id(), now).replaceWith(principal);
        });
    }

    private Uni<Principal> byToken(String token) {
        var claims = tokens.verify(token, clock.instant());
        if (claims.isEmpty()) {
            return fail(BAD_TOKEN);
        }
        return accounts.findUserById(claims.get().userId()).chain(user -> {
            if (user.isEmpty()) {
                return fail(NO_USER);
            }
            if (user.get().organizationId() == null) {
                return fail(NO_ORGANIZATION);
            }
            return Uni.createFrom().item(
                    new Principal(user.get().id(), user.get().organizationId(), Principal.Method.TOKEN));
        });
    }

    static String bearerValue(String header) {
        String value = header.strip();
        if (value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            value = value.substring(7).strip();
        }
        return value;
    }

    private static <T> Uni<T> fail(String message) {
        return Uni.createFrom().failure(new AuthenticationException(message));
    }
}
