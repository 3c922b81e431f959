package dev.voiceagent.adapters.models;

import dev.voiceagent.domain.outbound.AddressPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * GET requests to model providers. A URL a tenant can aim (a base URL in its configuration) is resolved
 * here and every address checked against the installation's {@link AddressPolicy} before connecting and
 * again on every redirect; the connection goes to the address that was checked (no second lookup).
 * Bodies are read up to 1 MiB; every request has a time limit.
 */
@ApplicationScoped
public class GuardedHttp {

    /** A provider's answer; {@code body} cut at {@link #MAX_BODY} bytes; its Retry-After header, if any. */
    public record Reply(int status, String body, String retryAfter) {

        public Reply(int status, String body) {
            this(status, body, null);
        }
    }

    /** The request could not be made: refused by the address policy, unreachable, or timed out. */
    public static class Unreachable extends RuntimeException {
        Unreachable(String message) {
            super(message, null, false, false);
        }
    }

    static final int MAX_BODY = 1 << 20;
    static final int MAX_REDIRECTS = 3;

    private final Vertx vertx;
    private final HttpClient client;
    private final AddressPolicy policy;
    private final Duration timeout;

    public GuardedHttp(Vertx vertx,
            @ConfigProperty(name = "voiceagent.outbound.allowed") Optional<List<String>> allowed,
            @ConfigProperty(name = "voiceagent.models.timeout", defaultValue = "PT10S") Duration timeout) {
        this.vertx = vertx;
        this.policy = AddressPolicy.allowing(allowed.orElse(List.of()));
        this.timeout = timeout;
        this.client = vertx.createHttpClient(new HttpClientOptions().setVerifyHost(true).setForceSni(true)
                .setConnectTimeout((int) timeout.toMillis()).setMaxPoolSize(20));
    }

    @PreDestroy
    void close() {
        client.close();
    }

    /** GET {@code url}; {@code guarded} when a tenant chose it (a configured base URL). */
    public Uni<Reply> get(String url, Map<String, String> headers, boolean guarded) {
        return Uni.createFrom().completionStage(() -> send(HttpMethod.GET, url, headers, null, timeout, guarded, 0)
                .toCompletionStage());
    }

    /**
     * POST a JSON body to {@code url} with its own time limit (a model's answer can take a while). A redirect
     * is not followed: a POST is not repeated somewhere else.
     */
    public Uni<Reply> postJson(String url, Map<String, String> headers, String json, Duration limit, boolean guarded) {
        Map<String, String> all = new java.util.LinkedHashMap<>(headers);
        all.put("Content-Type", "application/json");
        all.put("Accept", "application/json");
        return Uni.createFrom().completionStage(() -> send(HttpMethod.POST, url, all, Buffer.buffer(json), limit,
                guarded, MAX_REDIRECTS).toCompletionStage());
    }

    private Future<Reply> send(HttpMethod method, String url, Map<String, String> headers, Buffer body, Duration limit,
            boolean guarded, int hop) {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(new Unreachable("Not a valid URL: " + url));
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            return Future.failedFuture(new Unreachable("Not an http(s) URL: " + url));
        }
        String host = uri.getHost();
        boolean tls = scheme.equals("https");
        int port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return resolve(host).compose(address -> {
            if (guarded) {
                Optional<String> refusal = policy.refusal(host, address);
                if (refusal.isPresent()) {
                    return Future.failedFuture(new Unreachable(refusal.get()));
                }
            }
            RequestOptions options = new RequestOptions().setMethod(method).setHost(host).setPort(port)
                    .setSsl(tls).setURI(path).setServer(SocketAddress.inetSocketAddress(port, address.getHostAddress()))
                    .setTimeout(limit.toMillis()).setFollowRedirects(false);
            headers.forEach(options::putHeader);
            return client.request(options).compose(request -> body == null ? request.send() : request.send(body))
                    .compose(response -> {
                        String location = response.getHeader("Location");
                        if (response.statusCode() / 100 == 3 && location != null && method == HttpMethod.GET) {
                            if (hop >= MAX_REDIRECTS) {
                                return Future.failedFuture(new Unreachable("Too many redirects from " + url));
                            }
                            response.request().reset();
                            return send(method, uri.resolve(location).toString(), headers, null, limit, guarded,
                                    hop + 1);
                        }
                        return read(response);
                    });
        }).recover(failure -> Future.failedFuture(failure instanceof Unreachable ? failure
                : new Unreachable("Could not reach " + host + ": " + describe(failure))));
    }

    private Future<InetAddress> resolve(String host) {
        return vertx.executeBlocking(() -> {
            InetAddress[] all = InetAddress.getAllByName(host);
            if (all.length == 0) {
                throw new Unreachable(host + " does not resolve");
            }
            return all[0];
        }, false);
    }

    private static Future<Reply> read(HttpClientResponse response) {
        Promise<Reply> reply = Promise.promise();
        Buffer body = Buffer.buffer();
        response.handler(chunk -> {
            if (body.length() < MAX_BODY) {
                body.appendBuffer(chunk.length() + body.length() <= MAX_BODY ? chunk
                        : chunk.getBuffer(0, MAX_BODY - body.length()));
            }
        });
        response.exceptionHandler(reply::tryFail);
        response.endHandler(v -> reply.tryComplete(new Reply(response.statusCode(), body.toString(),
                response.getHeader("Retry-After"))));
        return reply.future();
    }

    private static String describe(Throwable failure) {
        String name = failure.getClass().getSimpleName();
        if (name.contains("Timeout") || String.valueOf(failure.getMessage()).toLowerCase(Locale.ROOT).contains("timeout")) {
            return "timed out";
        }
        return failure.getMessage() == null ? name : failure.getMessage();
    }
}
