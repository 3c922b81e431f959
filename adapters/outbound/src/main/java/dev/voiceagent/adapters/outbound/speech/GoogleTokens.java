package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Access tokens of Google Cloud service accounts, for every configuration that signs in with a service account's JSON
 * key ({@code credentials}) rather than an API key (Google Cloud text-to-speech and speech-to-text, Gemini Live on
 * Vertex AI, their key checks) and for the installation's Application Default Credentials (Vertex AI's fallback).
 * OAuth 2.0's JWT bearer grant (RFC 7523) as Google's "Using OAuth 2.0 for Server to Server Applications"
 * (developers.google.com/identity/protocols/oauth2/service-account) describes it: a JWT signed with the account's
 * private key (RS256, its {@code private_key_id} as {@code kid}; {@code iss} the account's email, {@code scope}
 * cloud-platform, an hour long, and {@code aud} the token endpoint it is posted to: "always
 * https://oauth2.googleapis.com/token" in Google's words, the endpoint Google's own libraries post to and name) is
 * posted as {@code grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer} to the installation's token address
 * (VOICEAGENT_MODELS_GOOGLE_OAUTH_BASE_URL + {@code /token}, by default https://oauth2.googleapis.com/token), never to
 * the key file's {@code token_uri}: a tenant's file must not aim the server's requests.
 *
 * <p>A token is kept per account (its email, key id and key: a file naming an account without its key gets nothing)
 * and token address for the whole process, shared by every call and check that signs in as that account until a
 * minute before it expires; concurrent asks share one request, and a failed one is not kept. A refusal (a bad,
 * revoked or deleted key: Google's 4xx with {@code error} and {@code error_description}) is a
 * {@link SpeechRequests.Said} not worth another try, with Google's words; a time-out or rate limit (408, 429) or
 * Google's 5xx one that is; an unreachable endpoint is GuardedHttp's. Signing (one RSA signature an hour an account)
 * is done where the token is asked for, on the event loop.
 */
public final class GoogleTokens {

    /** A service account as its JSON key file describes it. */
    public static final class Account {
        final String email;
        final String keyId;
        final PrivateKey key;
        /** Who the account is, and with which key: its tokens are kept by this. */
        final String id;

        private Account(String email, String keyId, PrivateKey key) {
            this.email = email;
            this.keyId = keyId;
            this.key = key;
            this.id = email + "/" + keyId + "/" + fingerprint(key);
        }

        /** The signed JWT that asks {@code tokenUrl} for a token, issued at {@code now} (seconds since the epoch). */
        String assertion(String tokenUrl, long now) {
            JsonObject header = new JsonObject().put("alg", "RS256").put("typ", "JWT");
            if (keyId != null) {
                header.put("kid", keyId);
            }
            JsonObject claims = new JsonObject().put("iss", email).put("scope", SCOPE).put("aud", tokenUrl)
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
                throw new SpeechRequests.Said("the service account's key cannot sign: " + e.getMessage(), false);
            }
        }

        private static String fingerprint(PrivateKey key) {
            try {
                return Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256")
                        .digest(key.getEncoded()));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("SHA-256 is missing", e);
            }
        }
    }

    static final String SCOPE = "https://www.googleapis.com/auth/cloud-platform";
    static final String GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    static final Duration LIFETIME = Duration.ofHours(1);
    /** A token this close to its expiry is asked for again. */
    static final Duration MARGIN = Duration.ofMinutes(1);

    /**
     * A service account of a JSON key ({@code type} service_account if given, {@code client_email}, {@code private_key}
     * a PKCS #8 PEM, {@code private_key_id} if given), as text or as the JSON object itself; anything else is an
     * IllegalArgumentException saying what is wrong, without the key.
     */
    public static Account account(Object credentials) {
        JsonObject json;
        try {
            json = credentials instanceof Map<?, ?> map ? new JsonObject(cast(map))
                    : new JsonObject(String.valueOf(credentials).strip());
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
            // a PEM pasted with its line breaks still escaped has them as the two characters \n
            String body = pem.replace("-----BEGIN PRIVATE KEY-----", "").replace("-----END PRIVATE KEY-----", "")
                    .replace("\\n", "").replaceAll("\\s", "");
            key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder()
                    .decode(body)));
        } catch (IllegalArgumentException | GeneralSecurityException notAKey) {
            throw new IllegalArgumentException("the service account's private_key is not an RSA key in PKCS #8 PEM");
        }
        String keyId = json.getValue("private_key_id") instanceof String id && !id.isBlank() ? id : null;
        return new Account(email.strip(), keyId, key);
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

    /** The tokens of the process, by token address and account: shared by every instance, so by every caller. */
    private static final Map<String, Held> HELD = new ConcurrentHashMap<>();

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final Duration limit;

    /** @param limit the time limit of a token request */
    public GoogleTokens(GuardedHttp http, ProviderApis apis, Duration limit) {
        this.http = http;
        this.apis = apis;
        this.limit = limit;
    }

    /** A token of the account: the one held while it is fresh, else a new one (asked once for all who wait). */
    public Uni<String> token(Account account) {
        String tokenUrl = apis.address("google_oauth") + "/token";
        long now = System.currentTimeMillis();
        return HELD.compute(tokenUrl + " " + account.id, (id, old) -> old != null && old.usable(now) ? old
                : ask(id, tokenUrl, account)).token;
    }

    private Held ask(String id, String tokenUrl, Account account) {
        Held fresh = new Held();
        fresh.token = Uni.createFrom().deferred(() -> {
            String form = "grant_type=" + URLEncoder.encode(GRANT, StandardCharsets.UTF_8) + "&assertion="
                    + URLEncoder.encode(account.assertion(tokenUrl, System.currentTimeMillis() / 1_000),
                            StandardCharsets.UTF_8);
            return http.exchange("POST", tokenUrl, Map.of("Content-Type", "application/x-www-form-urlencoded",
                    "Accept", "application/json"), form.getBytes(StandardCharsets.US_ASCII), limit, false);
        }).map(answer -> {
            JsonObject json = parsed(answer.body());
            if (answer.status() / 100 != 2 || !(json.getValue("access_token") instanceof String token)) {
                String said = json.getValue("error") instanceof String error ? error
                        + (json.getValue("error_description") instanceof String d ? ": " + d : "") : cut(answer.body());
                throw new SpeechRequests.Said("the service account " + account.email + " got no token (HTTP "
                        + answer.status() + (said.isEmpty() ? "" : ": " + said) + ")",
                        RetryBudget.transientStatus(answer.status()));
            }
            long seconds = json.getValue("expires_in") instanceof Number n ? n.longValue() : LIFETIME.toSeconds();
            fresh.expiresAtMillis = System.currentTimeMillis() + seconds * 1_000;
            return token;
        }).onFailure().invoke(failure -> {
            fresh.failed = true;
            HELD.remove(id, fresh);
        }).memoize().indefinitely();
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
