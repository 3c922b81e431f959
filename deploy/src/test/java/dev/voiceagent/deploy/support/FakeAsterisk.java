package dev.voiceagent.deploy.support;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local stand-in for an Asterisk's ARI (test code): its REST interface under /ari (HTTP Basic with the ARI user, 401
 * otherwise; every parameter in the query) and its events WebSocket (/ari/events?app=..., the same credentials). It
 * keeps channels and bridges as Asterisk does and refuses what it would: an originate without an endpoint or into an
 * application no one listens to, an externalMedia channel that is not a websocket client of a configured connection
 * speaking μ-law, a channel added to a bridge before it entered the application. Channels enter the application when
 * the test answers them ({@link #answer}) or calls in ({@link #callIn}); StasisStart, StasisEnd and ChannelDestroyed
 * (with its Q.850 cause) are sent on the events socket as Asterisk sends them.
 */
public final class FakeAsterisk implements AutoCloseable {

    public record Request(String method, String path, Map<String, String> query) {
    }

    private static final class Channel {
        final String id;
        final String name;
        final JsonArray args;
        String state;
        boolean inStasis;
        final String exten;
        final String callerNumber;
        /** The SIP headers the call came with (PJSIP_HEADER(read,...) reads them). */
        final Map<String, String> headers = new LinkedHashMap<>();

        Channel(String id, String name, String state, JsonArray args, String exten, String callerNumber) {
            this.id = id;
            this.name = name;
            this.state = state;
            this.args = args;
            this.exten = exten;
            this.callerNumber = callerNumber;
        }

        JsonObject json() {
            return new JsonObject().put("id", id).put("name", name).put("state", state)
                    .put("caller", new JsonObject().put("name", "").put("number", callerNumber))
                    .put("dialplan", new JsonObject().put("context", "from-internal").put("exten", exten)
                            .put("priority", 1)).put("creationtime", Instant.now().toString()).put("language", "en");
        }
    }

    public final List<Request> requests = new CopyOnWriteArrayList<>();
    /** The externalMedia channels asked for, in order: the transport_data of each. */
    public final LinkedBlockingQueue<Map<String, String>> mediaChannels = new LinkedBlockingQueue<>();
    public final List<String> violations = new CopyOnWriteArrayList<>();
    public final CompletableFuture<Void> listening = new CompletableFuture<>();
    /** Events sockets connected so far, and who waits for one after a given count. */
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Map.Entry<Integer, CompletableFuture<Void>>> waiters = new CopyOnWriteArrayList<>();

    private final String user;
    private final String password;
    private final String wsClient;
    private final Map<String, Channel> channels = new LinkedHashMap<>();
    private final Map<String, List<String>> bridges = new LinkedHashMap<>();
    private final List<ServerWebSocket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicInteger sequence = new AtomicInteger();
    private static final AtomicInteger UNIQUE = new AtomicInteger();
    private final HttpServer server;
    private volatile String application;

    public FakeAsterisk(Vertx vertx, String user, String password, String wsClient) throws Exception {
        this.user = user;
        this.password = password;
        this.wsClient = wsClient;
        this.server = vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    public String endpoint() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    private boolean authorized(HttpServerRequest request) {
        String expected = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        return expected.equals(request.getHeader("Authorization"));
    }

    private void handle(HttpServerRequest request) {
        if (!authorized(request)) {
            request.response().setStatusCode(401).end("{\"message\": \"Authentication required\"}");
            return;
        }
        String path = request.path();
        if (path.equals("/ari/events")) {
            application = request.getParam("app");
            request.toWebSocket().onSuccess(socket -> {
                sockets.add(socket);
                socket.closeHandler(v -> sockets.remove(socket));
                int connected = connections.incrementAndGet(); // counted before anyone hears of it
                listening.complete(null);
                waiters.removeIf(w -> {
                    if (connected > w.getKey()) {
                        w.getValue().complete(null);
                        return true;
                    }
                    return false;
                });
            });
            return;
        }
        Map<String, String> query = new LinkedHashMap<>();
        request.params().forEach(e -> query.put(e.getKey(), e.getValue()));
        requests.add(new Request(request.method().name(), path, query));
        synchronized (this) {
            reply(request, request.method().name(), path.substring("/ari".length()), query);
        }
    }

    private static void json(HttpServerRequest request, int status, Object body) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(body instanceof String s ? s : body.toString());
    }

    private static void refuse(HttpServerRequest request, int status, String message) {
        json(request, status, new JsonObject().put("message", message));
    }

    private void reply(HttpServerRequest request, String method, String path, Map<String, String> query) {
        String[] parts = path.split("/");
        switch (method + " " + (parts.length > 1 ? parts[1] : "")) {
            case "POST channels" -> {
                if (parts.length == 3 && parts[2].equals("externalMedia")) {
                    externalMedia(request, query);
                } else if (parts.length == 4 && parts[3].equals("answer")) {
                    Channel c = channels.get(parts[2]);
                    if (c == null) {
                        refuse(request, 404, "Channel not found");
                        return;
                    }
                    c.state = "Up";
                    request.response().setStatusCode(204).end();
                } else {
                    originate(request, query);
                }
            }
            case "GET channels" -> {
                if (parts.length == 4 && parts[3].equals("variable")) {
                    Channel c = channels.get(parts[2]);
                    String variable = query.getOrDefault("variable", "");
                    java.util.regex.Matcher header = java.util.regex.Pattern.compile("PJSIP_HEADER\\(read,([^)]+)\\)")
                            .matcher(variable);
                    if (c == null) {
                        refuse(request, 404, "Channel not found");
                    } else if (!header.matches()) {
                        violations.add("variable " + variable);
                        refuse(request, 400, "Unknown variable");
                    } else if (!c.headers.containsKey(header.group(1))) {
                        refuse(request, 404, "Provided variable was not found");
                    } else {
                        json(request, 200, new JsonObject().put("value", c.headers.get(header.group(1))));
                    }
                    return;
                }
                if (parts.length == 2) {
                    JsonArray all = new JsonArray();
                    channels.values().forEach(c -> all.add(c.json()));
                    json(request, 200, all);
                } else {
                    Channel c = channels.get(parts[2]);
                    if (c == null) {
                        refuse(request, 404, "Channel not found");
                    } else {
                        json(request, 200, c.json());
                    }
                }
            }
            case "DELETE channels" -> {
                Channel c = channels.get(parts[2]);
                if (c == null) {
                    refuse(request, 404, "Channel not found");
                    return;
                }
                request.response().setStatusCode(204).end();
                destroy(c, "busy".equals(query.get("reason")) ? 17 : 16);
            }
            case "POST bridges" -> bridge(request, parts, query);
            case "GET bridges" -> {
                if (parts.length == 2) {
                    JsonArray all = new JsonArray();
                    bridges.forEach((id, members) -> all.add(bridgeJson(id, members)));
                    json(request, 200, all);
                } else if (bridges.containsKey(parts[2])) {
                    json(request, 200, bridgeJson(parts[2], bridges.get(parts[2])));
                } else {
                    refuse(request, 404, "Bridge not found");
                }
            }
            case "DELETE bridges" -> {
                if (bridges.remove(parts[2]) == null) {
                    refuse(request, 404, "Bridge not found");
                } else {
                    request.response().setStatusCode(204).end();
                }
            }
            case "GET asterisk" -> json(request, 200, new JsonObject().put("system", new JsonObject()
                    .put("version", "22.8.0").put("entity_id", "00:11:22:33:44:55")));
            default -> refuse(request, 404, "Resource not found");
        }
    }

    private static JsonObject bridgeJson(String id, List<String> members) {
        return new JsonObject().put("id", id).put("bridge_type", "mixing").put("channels", new JsonArray(members));
    }

    private void originate(HttpServerRequest request, Map<String, String> query) {
        String endpoint = query.get("endpoint");
        if (endpoint == null || !endpoint.contains("/")) {
            refuse(request, 400, "Endpoint must be specified as tech/resource");
            return;
        }
        if (query.get("app") == null || !query.get("app").equals(application)) {
            refuse(request, 400, "Application '" + query.get("app") + "' not registered");
            return;
        }
        String id = query.getOrDefault("channelId", "pbx1-" + sequence.incrementAndGet());
        JsonArray args = new JsonArray();
        for (String arg : query.getOrDefault("appArgs", "").split(",")) {
            if (!arg.isEmpty()) {
                args.add(arg);
            }
        }
        Channel c = new Channel(id, endpoint + "-" + String.format("%08x", sequence.incrementAndGet()), "Down", args,
                "s", query.getOrDefault("callerId", ""));
        channels.put(id, c);
        json(request, 200, c.json());
    }

    private void externalMedia(HttpServerRequest request, Map<String, String> query) {
        if (!"websocket".equals(query.get("transport")) || !"client".equals(query.get("connection_type"))
                || !wsClient.equals(query.get("external_host")) || !"ulaw".equals(query.get("format"))
                || !"none".equals(query.get("encapsulation")) || !query.getOrDefault("app", "").equals(application)) {
            violations.add("externalMedia " + query);
            refuse(request, 400, "external_host must name a websocket_client.conf connection");
            return;
        }
        String data = query.getOrDefault("transport_data", "");
        if (!data.startsWith("v(") || !data.endsWith(")")) {
            violations.add("transport_data " + data);
            refuse(request, 400, "Invalid transport_data");
            return;
        }
        Map<String, String> variables = new LinkedHashMap<>();
        for (String pair : data.substring(2, data.length() - 1).split(",")) {
            int eq = pair.indexOf('=');
            variables.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        String id = query.getOrDefault("channelId", "ext-" + sequence.incrementAndGet());
        Channel c = new Channel(id, "WebSocket/" + wsClient + "/0x" + Integer.toHexString(sequence.incrementAndGet()),
                "Up", new JsonArray(), "", "");
        channels.put(id, c);
        json(request, 200, c.json());
        variables.put("channel_id", id);
        mediaChannels.add(variables);
        enter(c); // the media channel is in the application once Asterisk's websocket client is up
    }

    private void bridge(HttpServerRequest request, String[] parts, Map<String, String> query) {
        if (parts.length == 2) {
            String id = query.getOrDefault("bridgeId", "bridge-" + sequence.incrementAndGet());
            bridges.putIfAbsent(id, new ArrayList<>());
            json(request, 200, bridgeJson(id, bridges.get(id)));
            return;
        }
        List<String> members = bridges.get(parts[2]);
        if (members == null) {
            refuse(request, 404, "Bridge not found");
            return;
        }
        List<String> named = List.of(query.getOrDefault("channel", "").split(","));
        if (parts[3].equals("addChannel")) {
            for (String id : named) {
                Channel c = channels.get(id);
                if (c == null) {
                    refuse(request, 400, "Channel not found");
                    return;
                }
                if (!c.inStasis) {
                    violations.add("addChannel " + id + " before it entered the application");
                    refuse(request, 422, "Channel not in Stasis application");
                    return;
                }
            }
            members.addAll(named);
        } else {
            members.removeAll(named);
        }
        request.response().setStatusCode(204).end();
    }

    private void event(JsonObject event) {
        event.put("timestamp", Instant.now().toString()).put("application", application)
                .put("asterisk_id", "00:11:22:33:44:55");
        if (sockets.isEmpty()) {
            violations.add("no events socket for " + event.getString("type"));
        }
        for (ServerWebSocket socket : sockets) {
            if (socket.isClosed()) {
                sockets.remove(socket);
            } else {
                socket.writeTextMessage(event.encode());
            }
        }
    }

    private void enter(Channel c) {
        c.inStasis = true;
        event(new JsonObject().put("type", "StasisStart").put("args", c.args).put("channel", c.json()));
    }

    private void destroy(Channel c, int cause) {
        channels.remove(c.id);
        bridges.values().forEach(members -> members.remove(c.id));
        if (c.inStasis) {
            event(new JsonObject().put("type", "StasisEnd").put("channel", c.json()));
        }
        event(new JsonObject().put("type", "ChannelDestroyed").put("cause", cause).put("cause_txt",
                cause == 16 ? "Normal Clearing" : cause == 17 ? "User busy" : "No answer").put("channel", c.json()));
    }

    /** The dialled channel is answered: it enters the application with its arguments. */
    public synchronized void answer(String channelId) {
        Channel c = channels.get(channelId);
        c.state = "Up";
        enter(c);
    }

    /** The dialled channel is not answered: destroyed with {@code cause} (17 busy, 19 no answer) while ringing. */
    public synchronized void unanswered(String channelId, int cause) {
        Channel c = channels.get(channelId);
        c.state = "Ringing";
        destroy(c, cause);
    }

    /** Someone dials {@code exten}, which the dialplan sends to the application: a ringing channel enters it. */
    public synchronized String callIn(String exten, String from) {
        return callIn(exten, from, Map.of());
    }

    /** A call in whose INVITE carried these SIP headers (VICIdial's X-VICIDIAL-..., say). */
    public synchronized String callIn(String exten, String from, Map<String, String> headers) {
        String id = "1764410000." + UNIQUE.incrementAndGet(); // Asterisk's ids are unique across its restarts too
        Channel c = new Channel(id, "PJSIP/" + from + "-" + String.format("%08x", sequence.get()), "Ring",
                new JsonArray(), exten, from);
        c.headers.putAll(headers);
        channels.put(id, c);
        enter(c);
        return id;
    }

    /** The channel hangs up on Asterisk's side (the caller, or a media socket that closed). */
    public synchronized void hangUp(String channelId) {
        Channel c = channels.get(channelId);
        if (c != null) {
            destroy(c, 16);
        }
    }

    /** Completes when an events socket connects after this call (not one that connected before it). */
    public CompletableFuture<Void> nextListener() {
        CompletableFuture<Void> next = new CompletableFuture<>();
        waiters.add(Map.entry(connections.get(), next));
        return next;
    }

    /** Asterisk closes its events sockets (restarted, say). */
    public void dropEvents() {
        List<ServerWebSocket> open = List.copyOf(sockets);
        sockets.clear();
        open.forEach(ServerWebSocket::close);
    }

    /** Sends any event as the application's (a forged StasisStart, say). */
    public synchronized void send(JsonObject event) {
        event(event);
    }

    public synchronized boolean exists(String channelId) {
        return channels.containsKey(channelId);
    }

    public synchronized List<String> bridge(String bridgeId) {
        List<String> members = bridges.get(bridgeId);
        return members == null ? null : List.copyOf(members);
    }

    /** The first request of {@code method} on {@code path} (waits up to 10 s for it). */
    public Request await(String method, String path) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            for (Request r : requests) {
                if (r.method().equals(method) && r.path().equals(path)) {
                    return r;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no " + method + " " + path + " in " + requests);
    }

    @Override
    public void close() {
        sockets.forEach(ServerWebSocket::close);
        server.close();
    }
}
