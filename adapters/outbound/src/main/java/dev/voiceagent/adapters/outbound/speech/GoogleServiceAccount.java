package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import io.vertx.core.Future;
import io.vertx.core.Promise;
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
import java.time.Instant;
import java.util.Base64;
import java.util.Map;

/**
 * A Google Cloud service account's OAuth2 access tokens (scope cloud-platform), as Google's server-to-server flow
 * issues them (developers.google.com/identity/protocols/oauth2/service-account, "Preparing to make an authorized API
 * call"): a JWT signed with the account's private key (RS256, its {@code private_key_id} as {@code kid}; issuer the
 * account's e-mail, audience the token endpoint, one hour) exchanged with a JWT bearer grant at the installation's
 * token endpoint, never the one the pasted JSON names (a tenant's file must not aim the server's requests). A token
 * is kept until five minutes before it expires; calls asking meanwhile share one request. Refused credentials (400,
 * 401, 403: a revoked key, a deleted account) fail with {@link GeminiLive.Refused} and Google's words; anything else
 * (a 5xx, a time-out) may be tried again.
 */
final class GoogleServiceAccount {

    static final String SCOPE = "https://www.googleapis.com/auth/cloud-platform";
    static final String GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    /** A token this close to its expiry is renewed. */
    static final Duration EARLY = Duration.ofMinutes(5);
    static final Duration LIFETIME = Duration.ofHours(1);

    private final String email;
    private final String keyId;
    private final PrivateKey key;
    private final GuardedHttp http;
    private final String tokenUrl;
    private final Duration timeout;
    private String token;
    private Instant expires = Instant.EPOCH;
    private Future<String> fetching;

    private GoogleServiceAccount(String email, String keyId, PrivateKey key, GuardedHttp http, String tokenUrl,
            Duration timeout) {
        this.email = email;
        this.keyId = keyId;
        this.key = key;
        this.http = http;
        this.tokenUrl = tokenUrl;
        this.timeout = timeout;
    }

    /**
     * The account of a service-account key file ({@code client_email}, {@code private_key} as PKCS#8 PEM,
     * {@code private_key_id}), its tokens from {@code tokenUrl}; a file that is not one is refused here.
     */
    static GoogleServiceAccount of(Object credentials, GuardedHttp http, String tokenUrl, Duration timeout) {
        JsonObject json = json(credentials);
        String email = json.getString("client_email");
        String pem = json.getString("private_key");
        if (email == null || email.isBlank() || pem == null || pem.isBlank()) {
            throw new UnsupportedSpeechProvider("Gemini Live on Vertex AI needs a service account key file in"
                    + " credentials (client_email and private_key)");
        }
        return new GoogleServiceAccount(email, json.getString("private_key_id"), privateKey(pem), http, tokenUrl,
                timeout);
    }

    /** Who the account is, and with which key: accounts are kept (with their tokens) by this. */
    static String identity(Object credentials) {
        JsonObject json = json(credentials);
        return json.getString("client_email") + "/" + json.getString("private_key_id") + "/"
                + Integer.toHexString(String.valueOf(json.getString("private_key")).hashCode());
    }

    private static JsonObject json(Object credentials) {
        if (credentials instanceof Map<?, ?> map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = (Map<String, Object>) map;
            return new JsonObject(fields);
        }
        if (credentials instanceof String text && !text.isBlank()) {
            try {
                return new JsonObject(text.strip());
            } catch (DecodeException | ClassCastException malformed) {
                throw new UnsupportedSpeechProvider("Gemini Live on Vertex AI: credentials is not a service account"
                        + " key file (JSON)");
            }
        }
        throw new UnsupportedSpeechProvider("Gemini Live on Vertex AI needs the service account key file (JSON) in"
                + " credentials");
    }

    private static PrivateKey privateKey(String pem) {
        String base64 = pem.replace("-----BEGIN PRIVATE KEY-----", "").replace("-----END PRIVATE KEY-----", "")
                .replace("\\n", "").replaceAll("\\s", "");
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
                    Base64.getDecoder().decode(base64)));
        } catch (GeneralSecurityException | IllegalArgumentException malformed) {
            throw new UnsupportedSpeechProvider("Gemini Live on Vertex AI: the service account's private_key is not"
                    + " an RSA key in PKCS#8 PEM");
        }
    }

    /**
     * An access token: the one kept while it is good for five minutes more, else a new one. Its future completes
     * outside this account's lock (the streams waiting on it take their own).
     */
    Future<String> token() {
        Promise<String> promise;
        synchronized (this) {
            if (token != null && Instant.now().isBefore(expires.minus(EARLY))) {
                return Future.succeededFuture(token);
            }
            if (fetching != null) {
                return fetching;
            }
            promise = Promise.promise();
            fetching = promise.future();
        }
        String body = "grant_type=" + URLEncoder.encode(GRANT, StandardCharsets.UTF_8) + "&assertion="
                + URLEncoder.encode(assertion(Instant.now()), StandardCharsets.UTF_8);
        http.exchange("POST", tokenUrl, Map.of("Content-Type", "application/x-www-form-urlencoded",
                        "Accept", "application/json"), body.getBytes(StandardCharsets.UTF_8), timeout, false)
                .subscribe().with(reply -> answered(promise, reply), failure -> {
                    synchronized (this) {
                        fetching = null;
                    }
                    promise.fail(failure);
                });
        return promise.future();
    }

    private void answered(Promise<String> promise, GuardedHttp.Exchange reply) {
        JsonObject json = null;
        try {
            json = new JsonObject(reply.body());
        } catch (DecodeException | ClassCastException notJson) {
            // the body's own words below
        }
        String issued = reply.status() / 100 == 2 && json != null ? json.getString("access_token") : null;
        synchronized (this) {
            fetching = null;
            if (issued != null) {
                token = issued;
                expires = Instant.now().plusSeconds(json.getLong("expires_in", LIFETIME.toSeconds()));
            }
        }
        if (issued != null) {
            promise.complete(issued);
            return;
        }
        String body = reply.body().strip();
        Object words = json == null ? null : json.getValue("error_description", json.getValue("error"));
        String description = words instanceof String given ? given : said(body);
        String message = "Google's token service answered " + reply.status() + " for " + email
                + (description == null ? "" : ": " + description);
        int status = reply.status();
        promise.fail(status == 400 || status == 401 || status == 403 ? new GeminiLive.Refused(message)
                : new IllegalStateException(message));
    }

    private static String said(String body) {
        return body.isEmpty() ? null : body.length() > 300 ? body.substring(0, 300) + "..." : body;
    }

    /** The signed JWT that asks for a token at {@code now}. */
    String assertion(Instant now) {
        JsonObject header = new JsonObject().put("alg", "RS256").put("typ", "JWT");
        if (keyId != null && !keyId.isBlank()) {
            header.put("kid", keyId);
        }
        JsonObject claims = new JsonObject().put("iss", email).put("scope", SCOPE).put("aud", tokenUrl)
                .put("iat", now.getEpochSecond()).put("exp", now.plus(LIFETIME).getEpochSecond());
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String signed = url.encodeToString(header.encode().getBytes(StandardCharsets.UTF_8)) + "."
                + url.encodeToString(claims.encode().getBytes(StandardCharsets.UTF_8));
        try {
            Signature signature = Signature.getInstance("SHA256withRSA");
            signature.initSign(key);
            signature.update(signed.getBytes(StandardCharsets.US_ASCII));
            return signed + "." + url.encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the service account's key cannot sign: " + e.getMessage(), e);
        }
    }
}
