package dev.voiceagent.adapters.outbound.ari;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.domain.telephony.ExternalPbx;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * VICIdial's APIs as its remote agents use them (every call a GET, its user and password in the query as VICIdial
 * takes them, through the address guard, with the configuration's time limit): the agent API's {@code ra_call_control}
 * hangs the call up ({@code stage=HANGUP}) or sends it to an in-group ({@code stage=INGROUPTRANSFER}); the non-agent
 * API's {@code update_lead} writes the lead's fields. VICIdial answers in text: {@code SUCCESS: ...} or
 * {@code ERROR: ...}. Neither the URL nor the password is ever logged.
 */
final class Vicidial {

    private static final Logger LOG = Logger.getLogger(Vicidial.class);

    /** What VICIdial said: whether it did it, and its answer's first line. */
    record Outcome(boolean ok, String message) {
    }

    private final GuardedHttp http;

    Vicidial(GuardedHttp http) {
        this.http = http;
    }

    private Uni<Outcome> get(ExternalPbx pbx, ExternalPbx.Api api, Map<String, String> parameters, boolean lead) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("source", api.source());
        all.put("user", api.username());
        all.put("pass", api.password());
        all.putAll(parameters);
        String url = api.url() + (api.url().contains("?") ? "&" : "?") + AriRest.query(all);
        return http.exchange("GET", url, Map.of("Accept", "text/plain"), null,
                        Duration.ofSeconds(pbx.timeoutSeconds()))
                .map(exchange -> {
                    String body = exchange.body().strip();
                    String first = body.lines().findFirst().orElse("");
                    boolean ok = exchange.status() == 200 && (lead
                            ? body.lines().anyMatch(l -> l.startsWith("SUCCESS")
                                    || l.contains("CUSTOM FIELDS VALUES UPDATED"))
                            : body.startsWith("SUCCESS"));
                    return new Outcome(ok, exchange.status() == 200 ? first : "HTTP " + exchange.status());
                })
                .onFailure().recoverWithItem(f -> new Outcome(false, f instanceof GuardedHttp.Refused
                        ? "not an allowed address" : "not reached"));
    }

    private static String text(Map<String, Object> identity, String key) {
        Object value = identity.get(key);
        return value == null ? "" : String.valueOf(value).strip();
    }

    /** The agent API's call control of the call the identity names (its caller id and agent user). */
    private Uni<Outcome> control(ExternalPbx pbx, Map<String, Object> identity, String stage, String ingroup) {
        String callerId = text(identity, "callerid");
        String agent = text(identity, "agent_user");
        if (callerId.isEmpty() || agent.isEmpty()) {
            return Uni.createFrom().item(new Outcome(false, "the call has no VICIdial caller id or agent user"));
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("agent_user", agent);
        parameters.put("function", "ra_call_control");
        parameters.put("stage", stage);
        parameters.put("value", callerId);
        if (ingroup != null) {
            parameters.put("ingroup_choices", ingroup);
        }
        return get(pbx, pbx.agentApi(), parameters, false);
    }

    Uni<Outcome> hangUp(ExternalPbx pbx, Map<String, Object> identity) {
        return control(pbx, identity, "HANGUP", null);
    }

    /** To an in-group; {@code source} (any case) is the in-group the call came from. */
    Uni<Outcome> transfer(ExternalPbx pbx, Map<String, Object> identity, String destination) {
        String ingroup = "source".equalsIgnoreCase(destination.strip()) ? text(identity, "ingroup_id")
                : destination.strip();
        if (ingroup.isEmpty()) {
            return Uni.createFrom().item(new Outcome(false, "no in-group to transfer to"));
        }
        return control(pbx, identity, "INGROUPTRANSFER", ingroup);
    }

    /** The lead's fields (none: nothing to do); needs the non-agent API and the call's lead id. */
    Uni<Outcome> updateLead(ExternalPbx pbx, Map<String, Object> identity, Map<String, String> fields) {
        if (fields.isEmpty()) {
            return Uni.createFrom().item(new Outcome(true, "no fields"));
        }
        String lead = text(identity, "lead_id");
        if (pbx.nonAgentApi() == null || lead.isEmpty()) {
            return Uni.createFrom().item(new Outcome(false, pbx.nonAgentApi() == null ? "no non_agent_api configured"
                    : "the call has no lead id"));
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("function", "update_lead");
        parameters.put("lead_id", lead);
        parameters.put("format", "text");
        parameters.put("custom_fields", "Y");
        fields.forEach((field, value) -> {
            if (ExternalPbx.FIELD.matcher(field).matches() && !ExternalPbx.RESERVED.contains(field)) {
                parameters.put(field, value);
            }
        });
        return get(pbx, pbx.nonAgentApi(), parameters, true)
                .invoke(outcome -> {
                    if (!outcome.ok()) {
                        LOG.warnf("VICIdial lead %s not updated: %s", lead, outcome.message());
                    }
                });
    }
}
