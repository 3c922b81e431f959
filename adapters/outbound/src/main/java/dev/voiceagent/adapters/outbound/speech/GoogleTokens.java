package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Access tokens of Google Cloud service accounts, for the configurations that give a service account's JSON key
 * ({@code credentials}) instead of an API key: OAuth 2.0's JWT bearer grant (RFC 7523, Google's "Using OAuth 2.0 for
 * server to server applications"): a JWT signed with the account's private key (RS256; {@code iss} the account's email,
 * {@code scope} cloud-platform, {@code aud} its {@code token_uri}, an hour long) is posted as
 * {@code grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer} to the installation's token address
 * (VOICEAGENT_MODELS_GOOGLE_OAUTH_BASE_URL + {@code /token}, by default https://oauth2.googleapis.com/token: never the
 * tenant's {@code token_uri}, which only names the audience). A token is kept per account and shared by every call until
 * a minute before it expires; concurrent asks share one request, and a failed one is not kept. A refusal (a bad or
 * deleted key: 4xx with {@code error} and {@code error_description}) is a {@code SpeechRequests.Said} not worth
 * another try; Google's 5xx or 429 one that is; an unreachable endpoint is GuardedHttp's. Signing (one RSA signature an
 * hour an account) is done where the token is asked for, on the event loop.
 */
public final class GoogleTokens {

    /** A service account as its JSON key file describes it. */
    public static final class Account {
        final String email;
        final String keyId;
        final String tokenUri;
        final PrivateKey key;

        private Account(String email, String keyId, String tokenUri, PrivateKey key) {
            this.email = email;
            this.keyId = keyId;
            this.tokenUri = tokenUri;
            this.key = key;
        }

        /** The signed JWT that asks for a token, issued at {@code now} (seconds since the epoch). */
        String assertion(long now) {
            JsonObject header = new JsonObject().put("alg", "RS256").put("typ", "JWT");
            if (keyId != null) {
                header.put("kid", keyId);
            }
            JsonObject claims = new JsonObject().put("iss", email).put("scope", SCOPE).put("aud", tokenUri)
                    .put("iat", now).put("exp", now + LIFETIME.toSeconds());
            Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
            String signed = base64.encodeToString(header.encode().getBytes(StandardCharsets.UTF_8)) + "."
                    + base64.encodeToString(claims.encode().getBytes(StandardCharsets.UTF_8));
            try {
                Signature rs256 = Signature.getInstance("SHA256withRSA");
                rs256.initSign(key);
                rs256.update(signed.getBytes(StandardCharsets.US_ASCII));
                return signed + "." + base64.encodeToString(rs256.sign());
            } catch (GeneralSecurityException e) {
                throw new SpeechRequests.Said("the service account's key cannot sign: " + e.getMessage(),
                        false);
            }
        }
    }

    static final String SCOPE = "https://www.googleapis.com/auth/cloud-platform";
    static final Duration LIFETIME = Duration.ofHours(1);
    /** A token this close to its expiry is asked for again. */
    static final Duration MARGIN = Duration.ofMinutes(1);
    private static final String GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";

    /**
     * A service account of a JSON key ({@code type} service_account, {@code client_email}, {@code private_key} a PKCS #8
     * PEM, {@code private_key_id} and {@code token_uri} if given); anything else is an IllegalArgumentException saying
     * what is wrong, without the key.
     */
    public static Account account(Object credentials) {
        JsonObject json;
        try {
            json = credentials instanceof Map<?, ?> map ? new JsonObject(cast(map))
                    : new JsonObject(String.valueOf(credentials));
        } catch (DecodeException | ClassCastException notJson) {
            throw new IllegalArgumentException("the credentials are not a service account's JSON key");
        }
        Object type = json.getValue("type");
        if (type != null && !"service_account".equals(type)) {
            throw new IllegalArgumentException("the credentials are of type " + type
                    + ", not a service account's key");
        }
        if (!(json.getValue("client_email") instanceof String email) || email.isBlank()
                || !(json.getValue("private_key") instanceof String pem) || pem.isBlank()) {
            throw new IllegalArgumentException("the service account's key lacks client_email or private_key");
        }
        PrivateKey key;
        try {
            String body = pem.replace("-----BEGIN PRIVATE KEY-----", "").replace("-----END PRIVATE KEY-----", "")
                    .replaceAll("\\s", "");
            key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder()
                    .decode(body)));
        } catch (IllegalArgumentException | GeneralSecurityException notAKey) {
            throw new IllegalArgumentException("the service account's private_key is not an RSA key in PKCS #8 PEM");
        }
        String keyId = json.getValue("private_key_id") instanceof String id && !id.isBlank() ? id : null;
        String tokenUri = json.getValue("token_uri") instanceof String uri && !uri.isBlank() ? uri : GOOGLE_TOKEN_URI;
        return new Account(email.strip(), keyId, tokenUri, key);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }

    /** An account's token, asked for or had. */
    private static final class Held {
        Uni<String> token;
        volatile long expiresAtMillis; // 0 until it came
        volatile boolean failed;

        boolean usable(long nowMillis) {
            return !failed && (expiresAtMillis == 0 || expiresAtMillis - MARGIN.toMillis() > nowMillis);
        }
    }

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final Duration limit;
    private final Map<String, Held> held = new ConcurrentHashMap<>();

    /** @param limit the time limit of a token request */
    public GoogleTokens(GuardedHttp http, ProviderApis apis, Duration limit) {
        this.http = http;
        this.apis = apis;
        this.limit = limit;
    }

    /** A token of the account: the one held while it is fresh, else a new one (asked once for all who wait). */
    public Uni<String> token(Account account) {
        long now = System.currentTimeMillis();
        return held.compute(account.email + "/" + account.keyId, (id, old) -> old != null && old.usable(now) ? old
                : ask(account)).token;
    }

    private Held ask(Account account) {
        Held fresh = new Held();
        fresh.token = Uni.createFrom().deferred(() -> {
            String form = "grant_type=" + URLEncoder.encode("urn:ietf:params:oauth:grant-type:jwt-bearer",
                    StandardCharsets.UTF_8) + "&assertion=" + account.assertion(System.currentTimeMillis() / 1_000);
            return http.exchange("POST", apis.address("google_oauth") + "/token",
                    Map.of("Content-Type", "application/x-www-form-urlencoded", "Accept", "application/json"),
                    form.getBytes(StandardCharsets.US_ASCII), limit, false);
        }).map(answer -> {
            JsonObject json = parsed(answer.body());
            if (answer.status() / 100 != 2 || !(json.getValue("access_token") instanceof String token)) {
                String said = json.getValue("error") instanceof String error ? error
                        + (json.getValue("error_description") instanceof String d ? ": " + d : "") : cut(answer.body());
                throw new SpeechRequests.Said("the service account " + account.email + " got no token (HTTP "
                        + answer.status() + (said.isEmpty() ? "" : ": " + said) + ")", answer.status() == 429
                        || answer.status() / 100 == 5);
            }
            long seconds = json.getValue("expires_in") instanceof Number n ? n.longValue() : LIFETIME.toSeconds();
            fresh.expiresAtMillis = System.currentTimeMillis() + seconds * 1_000;
            return token;
        }).onFailure().invoke(failure -> fresh.failed = true).memoize().indefinitely();
        return fresh;
    }

    private static JsonObject parsed(String body) {
        try {
            return new JsonObject(body);
        } catch (DecodeException | ClassCastException notJson) {
            return new JsonObject();
        }
    }

    private static String cut(String text) {
        String flat = text.strip().replace('\n', ' ');
        return flat.length() <= 200 ? flat : flat.substring(0, 200) + "...";
    }
}
