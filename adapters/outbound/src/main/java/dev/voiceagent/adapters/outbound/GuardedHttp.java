package dev.voiceagent.adapters.outbound;

import dev.voiceagent.domain.outbound.AddressPolicy;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.net.SocketAddress;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
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

    /**
     * A whole answer: every header (several values joined with ", ", names in lower case), the body cut at
     * {@link #MAX_BODY} bytes ({@code truncated} says so) as text and as bytes, and how long the exchange took.
     */
    public record Exchange(int status, Map<String, String> headers, byte[] bytes, boolean truncated, long durationMs) {

        /** The body as UTF-8 text. */
        public String body() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        Reply reply() {
            return new Reply(status, body(), headers.get("retry-after"));
        }
    }

    /** The request could not be made: refused by the address policy, unreachable, or timed out. */
    public static class Unreachable extends RuntimeException {
        Unreachable(String message) {
            super(message, null, false, false);
        }
    }

    /** The request was refused before it left: its address is not allowed or it is not an http(s) URL. */
    public static class Refused extends Unreachable {
        Refused(String message) {
            super(message);
        }
    }

    /** The provider did not answer (or connect) within the time limit. */
    public static class TimedOut extends Unreachable {
        TimedOut(String message) {
            super(message);
        }
    }

    /** A WebSocket's upgrade was refused: the provider's status and its Retry-After, if any. */
    public static class SocketRefused extends Unreachable {
        public final int status;
        public final String retryAfter;

        SocketRefused(String message, int status, String retryAfter) {
            super(message);
            this.status = status;
            this.retryAfter = retryAfter;
        }
    }

    /** How a host name becomes addresses (the system resolver; tests give their own). */
    @FunctionalInterface
    interface Resolver {
        InetAddress[] resolve(String host) throws IOException;
    }

    static final int MAX_BODY = 1 << 20;
    /**
     * Connections per provider address: every live call holds a speech-to-text and a text-to-speech socket and, while
     * it answers, a model stream (Vert.x's defaults, 20 and 50, capped a replica at 25 talking calls).
     */
    static final int MAX_CONNECTIONS = 500;
    static final int MAX_REDIRECTS = 3;

    private final Vertx vertx;
    private final HttpClient client;
    private final WebSocketClient sockets;
    private final AddressPolicy policy;
    private final Duration timeout;
    private final Resolver resolver;

    @Inject
    public GuardedHttp(Vertx vertx,
            @ConfigProperty(name = "voiceagent.outbound.allowed") Optional<List<String>> allowed,
            @ConfigProperty(name = "voiceagent.models.timeout", defaultValue = "PT10S") Duration timeout) {
        this(vertx, allowed, timeout, InetAddress::getAllByName);
    }

    GuardedHttp(Vertx vertx, Optional<List<String>> allowed, Duration timeout, Resolver resolver) {
        this.vertx = vertx;
        this.policy = AddressPolicy.allowing(allowed.orElse(List.of()));
        this.timeout = timeout;
        this.resolver = resolver;
        this.client = vertx.createHttpClient(new HttpClientOptions().setVerifyHost(true).setForceSni(true)
                .setConnectTimeout((int) timeout.toMillis()).setMaxPoolSize(MAX_CONNECTIONS));
        this.sockets = vertx.createWebSocketClient(new WebSocketClientOptions().setVerifyHost(true)
                .setConnectTimeout((int) timeout.toMillis()).setMaxConnections(MAX_CONNECTIONS)
                .setMaxFrameSize(1 << 20)
                .setMaxMessageSize(4 << 20));
    }

    @PreDestroy
    void close() {
        client.close();
        sockets.close();
    }

    /** GET {@code url}; {@code guarded} when a tenant chose it (a configured base URL). */
    public Uni<Reply> get(String url, Map<String, String> headers, boolean guarded) {
        return Uni.createFrom().completionStage(() -> send(HttpMethod.GET, url, headers, null, timeout, guarded, 0)
                .map(Exchange::reply).toCompletionStage());
    }

    /**
     * POST a JSON body to {@code url} with its own time limit (a model's answer can take a while). A redirect
     * is not followed: a POST is not repeated somewhere else.
     */
    public Uni<Reply> postJson(String url, Map<String, String> headers, String json, Duration limit, boolean guarded) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put("Content-Type", "application/json");
        all.put("Accept", "application/json");
        return Uni.createFrom().completionStage(() -> send(HttpMethod.POST, url, all, Buffer.buffer(json), limit,
                guarded, MAX_REDIRECTS).map(Exchange::reply).toCompletionStage());
    }

    /**
     * Any request a tenant aimed (a tool, an MCP server, a webhook): always guarded, its own time limit, the whole
     * answer. A GET follows redirects (each one checked again); other methods are not repeated elsewhere, their
     * 3xx answer is returned as it is.
     */
    public Uni<Exchange> exchange(String method, String url, Map<String, String> headers, byte[] body,
            Duration limit) {
        return exchange(method, url, headers, body, limit, true);
    }

    /** As {@link #exchange(String, String, Map, byte[], Duration)}; unguarded only for the installation's own URLs. */
    public Uni<Exchange> exchange(String method, String url, Map<String, String> headers, byte[] body,
            Duration limit, boolean guarded) {
        HttpMethod m = HttpMethod.valueOf(method.toUpperCase(Locale.ROOT));
        return Uni.createFrom().completionStage(() -> send(m, url, headers, body == null ? null : Buffer.buffer(body),
                limit, guarded, 0).toCompletionStage());
    }

    /**
     * Opens a WebSocket to a provider (ws:// or wss://; an http(s) base URL becomes ws(s)), resolved once and checked
     * against the address policy like every request a tenant aims, connected to the address that was checked. A
     * refused upgrade fails with the provider's status, and the words of its answer's body, in its message.
     */
    public Future<WebSocket> webSocket(String url, Map<String, String> headers, Duration limit, boolean guarded) {
        Target target;
        try {
            target = Target.of(url, true);
        } catch (Refused refused) {
            return Future.failedFuture(refused);
        }
        return checked(target.host(), guarded).compose(address -> {
            WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(target.host())
                    .setPort(target.port()).setSsl(target.tls()).setURI(target.path()).setTimeout(limit.toMillis());
            options.setServer(SocketAddress.inetSocketAddress(target.port(), address.getHostAddress()));
            headers.forEach(options::addHeader);
            return sockets.connect(options);
        }).recover(failure -> Future.failedFuture(failure instanceof UpgradeRejectedException rejected
                ? new SocketRefused("Could not reach " + target.host() + ": " + describe(failure)
                        + said(rejected.getBody()), rejected.getStatus(), rejected.getHeaders() == null ? null
                                : rejected.getHeaders().get("Retry-After"))
                : unreachable(target.host(), failure)));
    }

    /** A refused upgrade's body as the provider's words (": Invalid API key"), or nothing when it had none. */
    private static String said(Buffer body) {
        String words = body == null ? null : ProviderChecks.message(body.toString(StandardCharsets.UTF_8));
        return words == null ? "" : ": " + words;
    }

    /**
     * Where a URL points: host, port, TLS, and the path with its query (a class, not a record: the native build's
     * check reads the adapters' records as JSON bodies).
     */
    private static final class Target {
        final URI uri;
        final String host;
        final int port;
        final boolean tls;
        final String path;

        private Target(URI uri, boolean tls, String path) {
            this.uri = uri;
            this.host = uri.getHost();
            this.port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
            this.tls = tls;
            this.path = path;
        }

        URI uri() {
            return uri;
        }

        String host() {
            return host;
        }

        int port() {
            return port;
        }

        boolean tls() {
            return tls;
        }

        String path() {
            return path;
        }

        /** http(s) only, or also ws(s) for a WebSocket; anything else is refused before it leaves. */
        static Target of(String url, boolean webSocket) {
            URI uri;
            try {
                uri = URI.create(url);
            } catch (IllegalArgumentException e) {
                throw new Refused("Not a valid URL: " + url);
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            boolean http = scheme.equals("http") || scheme.equals("https");
            boolean ws = webSocket && (scheme.equals("ws") || scheme.equals("wss"));
            if (!http && !ws || uri.getHost() == null) {
                throw new Refused((webSocket ? "Not a WebSocket URL: " : "Not an http(s) URL: ") + url);
            }
            String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                    + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            return new Target(uri, scheme.equals("https") || scheme.equals("wss"), path);
        }
    }

    /** The host's address, checked against the policy when a tenant chose it. */
    private Future<InetAddress> checked(String host, boolean guarded) {
        return resolve(host).compose(address -> {
            if (guarded) {
                Optional<String> refusal = policy.refusal(host, address);
                if (refusal.isPresent()) {
                    return Future.failedFuture(new Refused(refusal.get()));
                }
            }
            return Future.succeededFuture(address);
        });
    }

    /** A streamed answer's refusal: its status, the start of its body and its Retry-After, if any. */
    public static class StreamRefused extends RuntimeException {
        public final int status;
        public final String body;
        public final String retryAfter;

        StreamRefused(int status, String body, String retryAfter) {
            super("answered " + status, null, false, false);
            this.status = status;
            this.body = body;
            this.retryAfter = retryAfter;
        }
    }

    /**
     * POST a JSON body (or another text body whose Content-Type the headers give, such as Azure's SSML) and stream the
     * answer's body as it comes (server-sent events unless the headers accept something else, such as audio): its
     * chunks, or a {@link StreamRefused} for a non-2xx answer, an {@link Unreachable} when it cannot be reached. {@code limit} bounds
     * the wait for the answer's head; cancelling the subscription resets the request (the provider stops generating).
     * Guarded like every request a tenant aims.
     */
    public Multi<Buffer> postStream(String url, Map<String, String> headers, String json, Duration limit,
            boolean guarded) {
        return Multi.createFrom().emitter(emitter -> {
            Target target;
            try {
                target = Target.of(url, false);
            } catch (Refused refused) {
                emitter.fail(refused);
                return;
            }
            String host = target.host();
            HttpClientRequest[] open = new HttpClientRequest[1];
            emitter.onTermination(() -> {
                if (open[0] != null) {
                    open[0].reset(); // cancelled or done: the connection is not reused mid-stream
                }
            });
            checked(host, guarded).compose(address -> {
                RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(host)
                        .setPort(target.port()).setSsl(target.tls()).setURI(target.path())
                        .setServer(SocketAddress.inetSocketAddress(target.port(), address.getHostAddress()))
                        .setIdleTimeout(limit.toMillis()).setFollowRedirects(false);
                headers.forEach(options::putHeader);
                if (!headers.containsKey("Content-Type")) {
                    options.putHeader("Content-Type", "application/json");
                }
                if (!headers.containsKey("Accept")) {
                    options.putHeader("Accept", "text/event-stream");
                }
                return client.request(options);
            }).compose(request -> {
                open[0] = request;
                return request.send(Buffer.buffer(json));
            }).onSuccess(response -> {
                if (response.statusCode() / 100 != 2) {
                    response.body().onComplete(body -> emitter.fail(new StreamRefused(response.statusCode(),
                            body.succeeded() ? body.result().toString(StandardCharsets.UTF_8) : "",
                            response.getHeader("Retry-After"))));
                    return;
                }
                // the client's time limit ends with the head: a body that stops coming is caught here
                long[] idle = {vertx.setTimer(limit.toMillis(), t -> stalled(response, emitter, host, limit))};
                response.handler(chunk -> {
                    vertx.cancelTimer(idle[0]);
                    idle[0] = vertx.setTimer(limit.toMillis(), t -> stalled(response, emitter, host, limit));
                    emitter.emit(chunk);
                });
                response.exceptionHandler(failure -> {
                    vertx.cancelTimer(idle[0]);
                    if (!emitter.isCancelled()) { // a cancelled stream's reset is ours, not a failure
                        emitter.fail(new Unreachable("The stream from " + host + " broke: " + describe(failure)));
                    }
                });
                response.endHandler(v -> {
                    vertx.cancelTimer(idle[0]);
                    open[0] = null;
                    emitter.complete();
                });
            }).onFailure(failure -> {
                if (!emitter.isCancelled()) { // a stream cancelled before its answer came is reset by us
                    emitter.fail(failure instanceof Unreachable ? failure : unreachable(host, failure));
                }
            });
        });
    }

    /** Nothing of a streamed body came for {@code limit}: the request is reset and the stream fails as timed out. */
    private static void stalled(HttpClientResponse response, MultiEmitter<? super Buffer> emitter, String host,
            Duration limit) {
        if (emitter.isCancelled()) {
            return;
        }
        emitter.fail(new TimedOut("The stream from " + host + " broke: nothing came for " + limit.toMillis() + " ms"));
        response.request().reset();
    }

    private Future<Exchange> send(HttpMethod method, String url, Map<String, String> headers, Buffer body,
            Duration limit, boolean guarded, int hop) {
        Target target;
        try {
            target = Target.of(url, false);
        } catch (Refused refused) {
            return Future.failedFuture(refused);
        }
        long started = System.nanoTime();
        URI uri = target.uri();
        String host = target.host();
        boolean tls = target.tls();
        int port = target.port();
        String path = target.path();
        return checked(host, guarded).compose(address -> {
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
                            URI next = uri.resolve(location);
                            return send(method, next.toString(), sameOrigin(uri, next) ? headers : neutral(headers),
                                    null, limit, guarded, hop + 1);
                        }
                        return read(response, started);
                    });
        }).recover(failure -> Future.failedFuture(failure instanceof Unreachable ? failure
                : unreachable(host, failure)));
    }

    /** A failure to reach {@code host}: a {@link TimedOut} when the time limit ran out. */
    private static Unreachable unreachable(String host, Throwable failure) {
        String said = describe(failure);
        String message = "Could not reach " + host + ": " + said;
        return "timed out".equals(said) ? new TimedOut(message) : new Unreachable(message);
    }

    /** A redirect to another origin does not carry the request's credentials (only Accept and User-Agent go on). */
    private static Map<String, String> neutral(Map<String, String> headers) {
        Map<String, String> out = new LinkedHashMap<>();
        headers.forEach((k, v) -> {
            if (k.equalsIgnoreCase("Accept") || k.equalsIgnoreCase("User-Agent")) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static boolean sameOrigin(URI a, URI b) {
        return String.valueOf(a.getScheme()).equalsIgnoreCase(String.valueOf(b.getScheme()))
                && String.valueOf(a.getHost()).equalsIgnoreCase(String.valueOf(b.getHost())) && a.getPort() == b.getPort();
    }

    private Future<InetAddress> resolve(String host) {
        return vertx.executeBlocking(() -> {
            InetAddress[] all = resolver.resolve(host);
            if (all.length == 0) {
                throw new Unreachable(host + " does not resolve");
            }
            return all[0];
        }, false);
    }

    private static Future<Exchange> read(HttpClientResponse response, long started) {
        Promise<Exchange> reply = Promise.promise();
        Buffer body = Buffer.buffer();
        boolean[] truncated = {false};
        response.handler(chunk -> {
            if (body.length() + chunk.length() <= MAX_BODY) {
                body.appendBuffer(chunk);
            } else {
                if (body.length() < MAX_BODY) {
                    body.appendBuffer(chunk.getBuffer(0, MAX_BODY - body.length()));
                }
                truncated[0] = true;
            }
        });
        response.exceptionHandler(reply::tryFail);
        response.endHandler(v -> {
            Map<String, String> headers = new LinkedHashMap<>();
            response.headers().names().forEach(name -> headers.put(name.toLowerCase(Locale.ROOT),
                    String.join(", ", response.headers().getAll(name))));
            reply.tryComplete(new Exchange(response.statusCode(), Map.copyOf(headers), body.getBytes(), truncated[0],
                    Duration.ofNanos(System.nanoTime() - started).toMillis()));
        });
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
