package dev.voiceagent.adapters.outbound.ari;

import static dev.voiceagent.adapters.outbound.ari.AriRest.params;

import dev.voiceagent.application.call.CallReport;
import dev.voiceagent.application.call.FindCallRunUseCase;
import dev.voiceagent.application.call.InboundCallUseCase;
import dev.voiceagent.application.call.InboundCallUseCase.Answer;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.call.VoiceRuntime;
import dev.voiceagent.application.organization.OrganizationPreferencesRepository;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.ExternalPbx;
import dev.voiceagent.domain.telephony.ExternalPbxCalls;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The calls of one Asterisk configuration, driven by the events of its Stasis application (held by one replica, see
 * {@link AriEventStreams}). A channel entering the application is either a call this service dialled (its id is ours,
 * its arguments name the run; answered) or an inbound call (any other channel: looked up by the extension dialled,
 * answered if still ringing, refused with a hang-up cause otherwise). Either way an externalMedia channel is created
 * that dials this service's media route through the configuration's websocket_client.conf connection with the run's
 * ids and token ({@code transport_data=v(...)}), and once it is in the application both are put in a mixing bridge.
 * Whichever leg leaves the application ends the call (the bridge and the other legs are destroyed), unless a transfer
 * is ringing. A dialled call's channel destroyed is its outcome: answered, it completed; otherwise its hang-up cause
 * (17 busy, 18/19 no answer, any other failed), which Asterisk's reference integration never reported.
 */
final class AriCalls {

    private static final Logger LOG = Logger.getLogger(AriCalls.class);

    private final TelephonyConfiguration configuration;
    private final ProviderConfiguration.Ari ari;
    private final AriRest rest;
    private final VoiceRuntime runtime;
    private final InboundCallUseCase inbound;
    private final FindCallRunUseCase runs;
    private final ProcessCallReportUseCase reports;
    private final OrganizationPreferencesRepository preferences;
    /** Media channels created and not yet in the application: the call channel each is for. */
    private final Map<String, String> pendingBridges = new ConcurrentHashMap<>();

    AriCalls(TelephonyConfiguration configuration, AriRest rest, VoiceRuntime runtime, InboundCallUseCase inbound,
            FindCallRunUseCase runs, ProcessCallReportUseCase reports, OrganizationPreferencesRepository preferences) {
        this.preferences = preferences;
        this.configuration = configuration;
        this.ari = (ProviderConfiguration.Ari) configuration.configuration();
        this.rest = rest;
        this.runtime = runtime;
        this.inbound = inbound;
        this.runs = runs;
        this.reports = reports;
    }

    /** One event of the application; what it causes runs on its own and never fails the stream. */
    Uni<Void> on(JsonObject event) {
        JsonObject channel = event.getJsonObject("channel");
        String type = event.getString("type", "");
        if (channel == null || channel.getString("id") == null) {
            return Uni.createFrom().voidItem();
        }
        Uni<Void> handled = switch (type) {
            case "StasisStart" -> started(channel, event.getJsonArray("args", new JsonArray()));
            case "StasisEnd" -> left(channel.getString("id"));
            case "ChannelDestroyed" -> destroyed(channel, event.getInteger("cause", 0));
            default -> Uni.createFrom().voidItem();
        };
        return handled.onFailure().recoverWithUni(failure -> {
            LOG.warnf("ARI configuration %d: %s of channel %s: %s", configuration.id(), type, channel.getString("id"),
                    failure.getMessage());
            return Uni.createFrom().voidItem();
        });
    }

    private Uni<Void> started(JsonObject channel, JsonArray args) {
        String id = channel.getString("id");
        return switch (AriIds.kind(id)) {
            case MEDIA -> bridge(id);
            case TRANSFER -> transferAnswered(id);
            case CALL -> dialledAnswered(id, args);
            case BRIDGE -> Uni.createFrom().voidItem();
            case OTHER -> incoming(channel);
        };
    }

    /** A call this service dialled was answered: its arguments must name its run, of this configuration's organization. */
    private Uni<Void> dialledAnswered(String channelId, JsonArray args) {
        Map<String, String> named = new HashMap<>();
        for (Object arg : args) {
            for (String pair : String.valueOf(arg).split(",")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    named.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
                }
            }
        }
        Optional<Long> run = AriIds.run(channelId);
        long org = number(named.get("organization_id"));
        long workflow = number(named.get("workflow_id"));
        if (run.isEmpty() || run.get() != number(named.get("workflow_run_id")) || workflow < 0
                || org != configuration.organizationId()) {
            LOG.warnf("ARI configuration %d: channel %s entered with arguments naming no run of its organization; hung"
                    + " up", configuration.id(), channelId);
            return hangUp(channelId, "normal");
        }
        return media(channelId, run.get(), org, workflow);
    }

    private static long number(String text) {
        try {
            return text == null ? -1 : Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Someone called in (any channel not ours): the extension dialled finds the number, its organization and workflow,
     * as for every carrier; the configuration whose events brought the call must be the number's. Answered if it still
     * rings (a dialplan may answer before Stasis()), refused with a cause otherwise.
     */
    private Uni<Void> incoming(JsonObject channel) {
        String id = channel.getString("id");
        JsonObject dialplan = channel.getJsonObject("dialplan", new JsonObject());
        JsonObject caller = channel.getJsonObject("caller", new JsonObject());
        String called = dialplan.getString("exten", "");
        InboundCallUseCase.CallerDetails details = ari.externalPbx() == null
                || !channel.getString("name", "").startsWith("PJSIP/") ? null
                : (org, leadHeaders) -> preferences.get(org).chain(p -> p.externalPbxIntegrationsEnabled()
                        ? externalPbxIdentity(id, leadHeaders) : Uni.createFrom().item(Map.of()));
        var call = new InboundCallUseCase.InboundCall(Provider.ARI, called, caller.getString("number", ""), id,
                this::sameAsterisk, details);
        return inbound.answer(call).chain(answer -> switch (answer) {
            case Answer.Stream stream -> ("Up".equals(channel.getString("state")) ? Uni.createFrom().voidItem()
                    : rest.object(ari, "POST", "/channels/" + id + "/answer", Map.of()).replaceWithVoid())
                    .chain(() -> media(id, stream.runId(), stream.organizationId(), stream.workflowId()));
            case Answer.Reject reject -> hangUp(id, switch (reject.reason()) {
                case "busy" -> "busy";
                case "unknown_number" -> "unallocated";
                default -> "rejected";
            });
        }).onFailure().call(failure -> hangUp(id, "rejected"));
    }

    /** The fields every VICIdial call is known by, read from its X-VICIDIAL- SIP headers. */
    static final List<String> VICIDIAL_FIELDS = List.of("callerid", "user", "lead_id", "campaign_id", "ingroup_id");

    /**
     * VICIdial's identity of a call in, from the SIP headers its remote agent call carries ({@code X-VICIDIAL-<field>},
     * read as channel variables, at most 8 at a time): its caller id, agent user, lead, campaign and in-group, and the
     * lead fields the workflow asks for; none without a caller id (then VICIdial cannot be told anything of it).
     */
    private Uni<Map<String, Object>> externalPbxIdentity(String channelId, List<String> leadHeaders) {
        List<String> fields = new ArrayList<>(VICIDIAL_FIELDS);
        leadHeaders.stream().filter(h -> !fields.contains(h)).forEach(fields::add);
        List<Uni<Map.Entry<String, String>>> reads = fields.stream().map(field -> rest.object(ari, "GET",
                        "/channels/" + channelId + "/variable", params("variable",
                                "PJSIP_HEADER(read,X-VICIDIAL-" + field + ")"))
                .map(v -> Map.entry(field, v.getString("value", "").strip()))
                .onFailure().recoverWithItem(Map.entry(field, ""))).toList();
        return Uni.join().all(reads).usingConcurrencyOf(8).andFailFast().map(values -> {
            Map<String, Object> lead = new LinkedHashMap<>();
            values.stream().filter(e -> !e.getValue().isEmpty()).forEach(e -> lead.put(e.getKey(), e.getValue()));
            if (!(lead.get("callerid") instanceof String callerId)) {
                return Map.<String, Object>of();
            }
            Map<String, Object> identity = new LinkedHashMap<>();
            identity.put("type", ExternalPbx.TYPE);
            identity.put("callerid", callerId);
            identity.put("agent_user", lead.getOrDefault("user", ""));
            identity.put("lead_id", lead.getOrDefault("lead_id", ""));
            identity.put("campaign_id", lead.getOrDefault("campaign_id", ""));
            identity.put("ingroup_id", lead.getOrDefault("ingroup_id", ""));
            identity.put("lead", lead);
            return Map.of(ExternalPbxCalls.IDENTITY, identity);
        });
    }

    /**
     * The call's media: an externalMedia channel of ours that Asterisk connects, as a websocket client through the
     * configured connection, to this service's media route, the run's ids and token appended to the connection's URI.
     */
    private Uni<Void> media(String callChannel, long runId, long org, long workflow) {
        String token = runtime.streamToken(org, workflow, runId).orElse(null);
        if (token == null || ari.wsClientName().isBlank()) {
            LOG.warnf("ARI configuration %d: run %d has no media address (%s); hung up", configuration.id(), runId,
                    token == null ? "no voice runtime" : "no ws_client_name");
            return hangUp(callChannel, "normal");
        }
        String mediaChannel = AriIds.media(runId);
        pendingBridges.put(mediaChannel, callChannel);
        String transport = "v(workflow_id=" + workflow + ",organization_id=" + org + ",workflow_run_id=" + runId
                + ",token=" + token + ")";
        return rest.object(ari, "POST", "/channels/externalMedia", params("app", ari.appName(), "external_host",
                        ari.wsClientName(), "format", "ulaw", "transport", "websocket", "encapsulation", "none",
                        "connection_type", "client", "direction", "both", "transport_data", transport, "channelId",
                        mediaChannel))
                .replaceWithVoid()
                .onFailure().call(failure -> {
                    pendingBridges.remove(mediaChannel);
                    LOG.warnf("ARI configuration %d: no media channel for run %d: %s", configuration.id(), runId,
                            failure.getMessage());
                    return hangUp(callChannel, "normal");
                });
    }

    /** The media channel is in the application: the call and its media are bridged. */
    private Uni<Void> bridge(String mediaChannel) {
        String callChannel = pendingBridges.remove(mediaChannel);
        if (callChannel == null) {
            return Uni.createFrom().voidItem(); // created by another holder, or its call already gone
        }
        String bridge = AriIds.bridge(AriIds.run(mediaChannel).orElseThrow());
        return rest.object(ari, "POST", "/bridges", params("type", "mixing", "bridgeId", bridge, "name", bridge))
                .chain(() -> rest.object(ari, "POST", "/bridges/" + bridge + "/addChannel",
                        params("channel", callChannel + "," + mediaChannel)))
                .replaceWithVoid()
                .onFailure().call(() -> all(List.of(hangUp(mediaChannel, "normal"), hangUp(callChannel, "normal"),
                        rest.delete(ari, "/bridges/" + bridge, Map.of()).onFailure().recoverWithNull())));
    }

    /** A transfer's destination answered: it takes the media channel's place in the call's bridge. */
    private Uni<Void> transferAnswered(String destination) {
        String bridge = AriIds.bridge(AriIds.run(destination).orElseThrow());
        return rest.object(ari, "POST", "/bridges/" + bridge + "/addChannel", params("channel", destination))
                .chain(() -> bridgeOf(bridge))
                .chain(members -> all(members.stream().filter(m -> AriIds.kind(m) == AriIds.Kind.MEDIA)
                        .map(m -> rest.object(ari, "POST", "/bridges/" + bridge + "/removeChannel",
                                        params("channel", m)).replaceWithVoid().onFailure().recoverWithNull()
                                .chain(() -> rest.delete(ari, "/channels/" + m, Map.of()))).toList()))
                .onFailure(f -> f instanceof AriRest.Refusal r && r.status == 404)
                .recoverWithUni(() -> hangUp(destination, "normal")); // the call had ended meanwhile
    }

    private static Uni<Void> all(List<Uni<Void>> unis) {
        return unis.isEmpty() ? Uni.createFrom().voidItem()
                : Uni.join().all(unis).andCollectFailures().replaceWithVoid();
    }

    private Uni<List<String>> bridgeOf(String bridge) {
        return rest.object(ari, "GET", "/bridges/" + bridge, Map.of())
                .map(b -> b.getJsonArray("channels", new JsonArray()).stream().map(String::valueOf).toList());
    }

    /**
     * A leg left the application (Asterisk has taken it out of the bridge already): the call is over for every other
     * leg of its run's bridge, and the bridge is destroyed; except when the media channel leaves while a transfer of
     * its run rings (or has been put through): the caller stays for the destination. The run is named by the channel's
     * id, or for a call that came in by the call's id stored with its run.
     */
    private Uni<Void> left(String channelId) {
        String pending = pendingBridges.remove(channelId);
        if (pending != null) { // the media channel failed before it was bridged: the call has no media
            return hangUp(pending, "normal");
        }
        List<String> unbridged = pendingBridges.entrySet().stream().filter(e -> e.getValue().equals(channelId))
                .map(Map.Entry::getKey).toList();
        if (!unbridged.isEmpty()) { // the call left before its media was bridged: its media goes too
            unbridged.forEach(pendingBridges::remove);
            return all(unbridged.stream().map(m -> hangUp(m, "normal")).toList());
        }
        AriIds.Kind kind = AriIds.kind(channelId);
        Uni<Optional<Long>> run = kind == AriIds.Kind.OTHER ? runs.runOfCall(Provider.ARI, channelId)
                : Uni.createFrom().item(AriIds.run(channelId));
        return run.chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            String bridge = AriIds.bridge(found.get());
            Uni<Boolean> keep = kind != AriIds.Kind.MEDIA ? Uni.createFrom().item(false)
                    : rest.array(ari, "/channels").map(channels -> channels.stream().anyMatch(c ->
                            c instanceof JsonObject ch && AriIds.kind(ch.getString("id")) == AriIds.Kind.TRANSFER
                                    && AriIds.run(ch.getString("id")).orElse(-1L).equals(found.get())));
            return keep.chain(transferring -> transferring ? Uni.createFrom().voidItem()
                    : bridgeOf(bridge).chain(members -> destroy(bridge, channelId, members))
                            .onFailure(f -> f instanceof AriRest.Refusal r && r.status == 404).recoverWithNull());
        });
    }

    private Uni<Void> destroy(String bridge, String leaving, List<String> members) {
        return all(members.stream().filter(m -> !m.equals(leaving)).map(m -> hangUp(m, "normal")).toList())
                .chain(() -> rest.delete(ari, "/bridges/" + bridge, Map.of()));
    }

    /**
     * A channel is gone. A call's (dialled or taken, known by its id): its outcome to the run, as a report verified by
     * the configuration whose events carried it. A transfer's destination that never answered: the caller it waited
     * for is hung up (the agent had let the call go).
     */
    private Uni<Void> destroyed(JsonObject channel, int cause) {
        String id = channel.getString("id");
        AriIds.Kind kind = AriIds.kind(id);
        if (kind == AriIds.Kind.TRANSFER) {
            String bridge = AriIds.bridge(AriIds.run(id).orElseThrow());
            return bridgeOf(bridge).chain(members -> members.contains(id) ? Uni.createFrom().voidItem()
                            : destroy(bridge, id, members))
                    .onFailure(f -> f instanceof AriRest.Refusal r && r.status == 404).recoverWithNull();
        }
        if (kind == AriIds.Kind.MEDIA || kind == AriIds.Kind.BRIDGE) {
            return Uni.createFrom().voidItem();
        }
        CallStatus status = outcome(channel.getString("state"), cause);
        // a dialled call names its run (it can be destroyed, busy, before its id was stored with the call)
        Uni<Optional<Long>> ofCall = kind == AriIds.Kind.CALL ? Uni.createFrom().item(AriIds.run(id))
                : runs.runOfCall(Provider.ARI, id);
        return ofCall.chain(run -> run.isEmpty() ? Uni.createFrom().voidItem()
                : reports.process(new CallReport(Provider.ARI, run.get(), id, status, null, "ari:" + id + ":destroyed"),
                        this::sameAsterisk).replaceWithVoid());
    }

    /**
     * Whether a configuration is the one whose events brought this: the same Asterisk and ARI user (what the events
     * socket was opened with), whatever else was edited since (the stream follows an edit at the next tick).
     */
    private boolean sameAsterisk(ProviderConfiguration candidate) {
        return candidate instanceof ProviderConfiguration.Ari other && other.ariEndpoint().equals(ari.ariEndpoint())
                && other.appName().equals(ari.appName());
    }

    /** A destroyed channel's outcome: answered (Up) it completed; otherwise its Q.850 cause says why not. */
    static CallStatus outcome(String state, int cause) {
        if ("Up".equals(state)) {
            return CallStatus.COMPLETED;
        }
        return switch (cause) {
            case 17 -> CallStatus.BUSY;
            case 18, 19 -> CallStatus.NO_ANSWER;
            default -> CallStatus.FAILED;
        };
    }

    /** Hangs a channel up with a reason Asterisk knows (normal, busy, rejected, unallocated); gone already is fine. */
    Uni<Void> hangUp(String channelId, String reason) {
        return rest.delete(ari, "/channels/" + channelId, params("reason", reason))
                .onFailure().invoke(f -> LOG.debugf("ARI hang-up of %s: %s", channelId, f.getMessage()))
                .onFailure().recoverWithNull();
    }
}
