package dev.voiceagent.deploy.support;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A local stand-in for a VICIdial (test code): its agent API ({@code /agc/api.php}: {@code ra_call_control} with
 * stage HANGUP or INGROUPTRANSFER) and its non-agent API ({@code /vicidial/non_agent_api.php}: {@code update_lead}),
 * every request a GET whose user and password must be the API's (VICIdial answers {@code ERROR: Invalid Username/
 * Password} otherwise), answered in VICIdial's text.
 */
public final class FakeVicidial implements AutoCloseable {

    public final List<Map<String, String>> agentCalls = new CopyOnWriteArrayList<>();
    public final List<Map<String, String>> leadUpdates = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    /** Each API its own password (the agent API's and the non-agent API's users may differ in VICIdial). */
    public FakeVicidial(Vertx vertx, String user, String agentPassword, String nonAgentPassword) throws Exception {
        server = vertx.createHttpServer().requestHandler(request -> {
            Map<String, String> query = new LinkedHashMap<>();
            request.params().forEach(e -> query.put(e.getKey(), e.getValue()));
            String password = request.path().startsWith("/agc/") ? agentPassword : nonAgentPassword;
            if (!"GET".equals(request.method().name()) || !user.equals(query.get("user"))
                    || !password.equals(query.get("pass"))) {
                request.response().setStatusCode(200).end("ERROR: Invalid Username/Password: |" + query.get("user")
                        + "|\n");
                return;
            }
            switch (request.path()) {
                case "/agc/api.php" -> {
                    agentCalls.add(query);
                    boolean known = "ra_call_control".equals(query.get("function")) && query.get("value") != null
                            && query.get("agent_user") != null;
                    request.response().end(known ? "SUCCESS: ra_call_control " + query.get("stage") + " - "
                            + query.get("value") + "\n" : "ERROR: ra_call_control not valid\n");
                }
                case "/vicidial/non_agent_api.php" -> {
                    leadUpdates.add(query);
                    request.response().end("update_lead".equals(query.get("function")) && query.get("lead_id") != null
                            ? "SUCCESS: update_lead LEAD HAS BEEN UPDATED - " + query.get("lead_id")
                                    + "\nNOTICE: update_lead CUSTOM FIELDS VALUES UPDATED - " + query.get("lead_id")
                                    + "\n" : "ERROR: update_lead INVALID LEAD ID\n");
                }
                default -> request.response().setStatusCode(404).end("Not Found");
            }
        }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    public String base() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    @Override
    public void close() {
        server.close();
    }
}
