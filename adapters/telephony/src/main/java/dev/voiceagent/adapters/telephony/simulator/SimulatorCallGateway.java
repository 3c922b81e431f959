package dev.voiceagent.adapters.telephony.simulator;

import dev.voiceagent.adapters.telephony.CallbackSigner;
import dev.voiceagent.adapters.telephony.CallbackUrls;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.InboundCallSimulator;
import dev.voiceagent.application.call.OutboundCall;
import dev.voiceagent.application.call.SimulatedCallee;
import dev.voiceagent.application.call.Transfer;
import dev.voiceagent.application.call.VoiceRuntime;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.CalleeScript;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Places no real call. After the configured delays it reports ringing, in-progress and the outcome
 * its rules choose for the number (by suffix) through the same signed callback route a provider
 * would use, so calls and campaigns run end to end on a laptop. A rule with lines makes an answered call talk: its
 * media is streamed to the signed media route like a carrier's and a {@link SimulatedCallee} says the lines; the
 * outcome is reported when the conversation ends, with its real length.
 */
@ApplicationScoped
public class SimulatorCallGateway implements CallGateway, InboundCallSimulator {

    private static final Logger LOG = Logger.getLogger(SimulatorCallGateway.class);
    public static final String SIGNATURE_HEADER = "X-Simulator-Signature";
    /** A talking call without a rule's duration_seconds is cut off after this long. */
    static final int TALK_MAX_SECONDS = 600;

    private final Vertx vertx;
    private final CallbackSigner signer;
    private final String baseUrl;
    private final SimulatedCallee callee;
    private final VoiceRuntime voiceRuntime;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public SimulatorCallGateway(Vertx vertx, CallbackSigner signer,
            @ConfigProperty(name = "voiceagent.callbacks.base-url") String baseUrl, SimulatedCallee callee,
            VoiceRuntime voiceRuntime) {
        this.vertx = vertx;
        this.callee = callee;
        this.voiceRuntime = voiceRuntime;
        this.signer = signer;
        this.baseUrl = CallbackUrls.base(baseUrl);
    }

    @Override
    public Provider provider() {
        return Provider.SIMULATOR;
    }

    @Override
    public Uni<String> originate(OutboundCall call) {
        var simulator = (ProviderConfiguration.Simulator) call.configuration();
        var rule = simulator.outcomeFor(call.to());
        long step = Math.max(1, simulator.ringDelayMs());
        boolean answered = rule.outcome() == CallStatus.COMPLETED || rule.outcome() == CallStatus.VOICEMAIL;
        if (rule.talks()) {
            String url = voiceRuntime.streamUrl(call.organizationId(), call.workflowId(), call.runId()).orElseThrow();
            int max = rule.durationSeconds() == null ? TALK_MAX_SECONDS : Math.max(1, rule.durationSeconds());
            String callId = "SIM-" + UUID.randomUUID() + "~" + (System.currentTimeMillis() + 2 * step + max * 1_000L)
                    + "~" + CallStatus.COMPLETED.wireName();
            report(call.runId(), callId, CallStatus.RINGING, null, step);
            vertx.setTimer(2 * step, id -> talk(call.runId(), callId, url, rule.script(), max));
            return Uni.createFrom().item(callId);
        }
        // like a provider's call record, the call id tells fetchStatus how the call goes: its end and outcome
        long endsAt = System.currentTimeMillis() + (answered ? 3 : 2) * step;
        String callId = "SIM-" + UUID.randomUUID() + "~" + endsAt + "~" + rule.outcome().wireName();
        report(call.runId(), callId, CallStatus.RINGING, null, step);
        if (answered) {
            report(call.runId(), callId, CallStatus.IN_PROGRESS, null, 2 * step);
            report(call.runId(), callId, rule.outcome(),
                    rule.durationSeconds() == null ? simulator.defaultDurationSeconds() : rule.durationSeconds(), 3 * step);
        } else {
            report(call.runId(), callId, rule.outcome(), 0, 2 * step);
        }
        return Uni.createFrom().item(callId);
    }

    /**
     * The call is answered (reported first), then its callee talks on the media route; the outcome follows the
     * conversation: completed with its length, or failed when the media route refused the callee.
     */
    private void talk(long runId, String callId, String mediaUrl, CalleeScript script, int maxSeconds) {
        send(runId, event(callId, CallStatus.IN_PROGRESS, null))
                .thenCompose(answered -> callee.answer(mediaUrl, runId, script, maxSeconds).subscribeAsCompletionStage())
                .whenComplete((seconds, failure) -> {
                    if (failure != null) {
                        LOG.warnf("simulated call of run %d could not talk: %s", runId, failure.getMessage());
                    }
                    send(runId, event(callId, failure == null ? CallStatus.COMPLETED : CallStatus.FAILED,
                            failure == null ? seconds : 0));
                });
    }

    private void report(long runId, String callId, CallStatus status, Integer duration, long delayMs) {
        vertx.setTimer(delayMs, id -> send(runId, event(callId, status, duration)));
    }

    private static String event(String callId, CallStatus status, Integer duration) {
        return new JsonObject().put("call_id", callId).put("status", status.wireName())
                .put("duration_seconds", duration).put("event_id", callId + ":" + status.wireName()).encode();
    }

    private CompletableFuture<Void> send(long runId, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/telephony/simulator/events/" + runId))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .header(SIGNATURE_HEADER, signer.sign(body)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).handle((response, failure) -> {
            if (failure != null || response.statusCode() >= 300) {
                LOG.warnf("simulated call report for run %d not accepted: %s", runId,
                        failure != null ? failure.getMessage() : "HTTP " + response.statusCode());
            }
            return null;
        });
    }

    /**
     * Rings a number through the signed inbound webhook, as a provider would; when the call is taken, it is
     * answered after the ring delay and ends after the configuration's default duration (in steps of the delay);
     * when a rule with lines matches the caller's number, the call talks instead (the caller says the lines).
     */
    @Override
    public Uni<Map<String, Object>> ring(ProviderConfiguration.Simulator configuration, String to,
            String from) {
        long step = Math.max(1, configuration.ringDelayMs());
        var rule = configuration.outcomeFor(from == null ? "" : from); // the caller's lines, by the caller's number
        int max = rule.durationSeconds() == null ? TALK_MAX_SECONDS : Math.max(1, rule.durationSeconds());
        long endsAt = System.currentTimeMillis() + (rule.talks() ? step + max * 1_000L : 2 * step);
        String callId = "SIM-IN-" + UUID.randomUUID() + "~" + endsAt + "~" + CallStatus.COMPLETED.wireName();
        String body = new JsonObject().put("to", to).put("from", from == null ? "+15550000000" : from)
                .put("call_id", callId).encode();
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/telephony/simulator/inbound"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .header(SIGNATURE_HEADER, signer.sign(body)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return Uni.createFrom().completionStage(() -> http.sendAsync(request, HttpResponse.BodyHandlers.ofString()))
                .map(response -> {
                    JsonObject answer = new JsonObject(response.body());
                    if ("stream".equals(answer.getString("action")) && rule.talks()) {
                        long runId = answer.getLong("workflow_run_id");
                        vertx.setTimer(step, id -> talk(runId, callId, answer.getString("stream_url"), rule.script(),
                                max));
                    } else if ("stream".equals(answer.getString("action"))) {
                        long runId = answer.getLong("workflow_run_id");
                        report(runId, callId, CallStatus.IN_PROGRESS, null, step);
                        report(runId, callId, CallStatus.COMPLETED, configuration.defaultDurationSeconds(), 2 * step);
                    }
                    return answer.getMap();
                });
    }

    @Override
    public Uni<Void> hangUp(ProviderConfiguration configuration, String providerCallId) {
        return Uni.createFrom().voidItem();
    }

    /** The simulator takes every transfer: the simulated call ends when its media stream does. */
    @Override
    public Uni<Void> transfer(ProviderConfiguration configuration, String providerCallId,
            Transfer transfer) {
        return Uni.createFrom().voidItem();
    }

    /**
     * The simulated provider's view of a call, read from its id (so any replica answers, as a real
     * provider's API would): in progress until its end, then its outcome; unknown ids are unknown.
     */
    @Override
    public Uni<Optional<CallStatus>> fetchStatus(ProviderConfiguration configuration, String providerCallId) {
        String[] parts = providerCallId == null ? new String[0] : providerCallId.split("~");
        if (parts.length != 3 || !parts[0].startsWith("SIM-")) {
            return Uni.createFrom().item(Optional.empty());
        }
        try {
            long endsAt = Long.parseLong(parts[1]);
            Optional<CallStatus> outcome = CallStatus.fromWireName(parts[2]);
            return Uni.createFrom().item(System.currentTimeMillis() < endsAt && outcome.isPresent()
                    ? Optional.of(CallStatus.IN_PROGRESS) : outcome);
        } catch (NumberFormatException e) {
            return Uni.createFrom().item(Optional.empty());
        }
    }
}
