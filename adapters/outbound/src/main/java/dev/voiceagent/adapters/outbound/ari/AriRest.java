package dev.voiceagent.adapters.outbound.ari;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.call.CallGatewayException;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Asterisk's REST interface ({ari_endpoint}/ari) of one configuration: HTTP Basic with the ARI user and its password,
 * every parameter in the query (no call here has a body), each request through the installation's address guard (the
 * endpoint is an address the tenant chose) with its own time limit. A refusal is a {@link Refusal} with Asterisk's
 * status and message.
 */
final class AriRest {

    /** Asterisk answered with an error status; its message (ARI's {"message": ...}) when it gave one. */
    static final class Refusal extends CallGatewayException {
        final int status;

        Refusal(int status, String message) {
            super("Asterisk answered HTTP " + status + (message == null ? "" : ": " + message), null);
            this.status = status;
        }
    }

    /** The endpoint is an address the installation does not let a tenant aim at. */
    static final class NotAllowed extends CallGatewayException {
        NotAllowed(String message, Throwable cause) {
            super("Asterisk's ARI endpoint is not an allowed address: " + message, cause);
        }
    }

    private final GuardedHttp http;
    private final Duration limit;

    AriRest(GuardedHttp http, Duration limit) {
        this.http = http;
        this.limit = limit;
    }

    /** The REST base of an endpoint: {ari_endpoint}/ari, whether or not the endpoint was written with /ari. */
    static String base(ProviderConfiguration.Ari ari) {
        String endpoint = ari.ariEndpoint().strip();
        while (endpoint.endsWith("/")) {
            endpoint = endpoint.substring(0, endpoint.length() - 1);
        }
        return endpoint.endsWith("/ari") ? endpoint : endpoint + "/ari";
    }

    static String authorization(ProviderConfiguration.Ari ari) {
        return "Basic " + Base64.getEncoder().encodeToString((ari.appName() + ":" + ari.appPassword())
                .getBytes(StandardCharsets.UTF_8));
    }

    /** Query parameters in order, each value URL-encoded (a password or dial string with &, # or + stays whole). */
    static String query(Map<String, String> parameters) {
        return parameters.entrySet().stream().filter(e -> e.getValue() != null)
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    static Map<String, String> params(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** Any request; its answer's JSON body ({} when empty, as a 204's). */
    Uni<Object> send(ProviderConfiguration.Ari ari, String method, String path, Map<String, String> parameters) {
        String q = parameters.isEmpty() ? "" : "?" + query(parameters);
        return http.exchange(method, base(ari) + path + q, Map.of("Authorization", authorization(ari), "Accept",
                        "application/json"), null, limit)
                .onFailure(GuardedHttp.Refused.class).transform(f -> new NotAllowed(f.getMessage(), f))
                .onFailure(GuardedHttp.Unreachable.class).transform(f -> new CallGatewayException(
                        "Asterisk could not be reached: " + f.getMessage(), f))
                .map(exchange -> {
                    String body = exchange.body().strip();
                    if (exchange.status() < 200 || exchange.status() > 299) {
                        throw new Refusal(exchange.status(), message(body));
                    }
                    if (body.isEmpty()) {
                        return new JsonObject();
                    }
                    try {
                        return body.startsWith("[") ? new JsonArray(body) : new JsonObject(body);
                    } catch (DecodeException notJson) {
                        throw new CallGatewayException("Asterisk answered something that is not ARI's JSON", null);
                    }
                });
    }

    Uni<JsonObject> object(ProviderConfiguration.Ari ari, String method, String path, Map<String, String> parameters) {
        return send(ari, method, path, parameters).map(o -> o instanceof JsonObject json ? json : new JsonObject());
    }

    Uni<JsonArray> array(ProviderConfiguration.Ari ari, String path) {
        return send(ari, "GET", path, Map.of()).map(o -> o instanceof JsonArray json ? json : new JsonArray());
    }

    /** DELETE that a 404 also satisfies (the channel or bridge had gone already). */
    Uni<Void> delete(ProviderConfiguration.Ari ari, String path, Map<String, String> parameters) {
        return send(ari, "DELETE", path, parameters).replaceWithVoid()
                .onFailure(f -> f instanceof Refusal r && r.status == 404).recoverWithNull();
    }

    private static String message(String body) {
        try {
            String message = new JsonObject(body).getString("message");
            return message == null || message.isBlank() ? null : message.length() > 200 ? message.substring(0, 200)
                    : message;
        } catch (RuntimeException notJson) {
            return null;
        }
    }
}
