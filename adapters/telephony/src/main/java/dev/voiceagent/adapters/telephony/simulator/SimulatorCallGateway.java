package dev.voiceagent.adapters.telephony.simulator;

import dev.voiceagent.adapters.telephony.CallbackSigner;
import dev.voiceagent.adapters.telephony.CallbackUrls;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.InboundCallSimulator;
import dev.voiceagent.application.call.OutboundCall;
import dev.voiceagent.domain.telephony.CallStatus;
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
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Places no real call. After the configured delays it reports ringing, in-progress and the outcome
 * its rules choose for the number (by suffix) through the same signed callback route a provider
 * would use, so calls and campaigns run end to end on a laptop.
 */
@ApplicationScoped
public class SimulatorCallGateway implements CallGateway, InboundCallSimulator {

    private static final Logger LOG = Logger.getLogger(SimulatorCallGateway.class);
    public static final String SIGNATURE_HEADER = "X-Simulator-Signature";

    private final Vertx vertx;
    private final CallbackSigner signer;
    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public SimulatorCallGateway(Vertx vertx, CallbackSigner signer,
            @ConfigProperty(name = "voiceagent.callbacks.base-url") String baseUrl) {
        this.vertx = vertx;
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

    private void report(long runId, String callId, CallStatus status, Integer duration, long delayMs) {
        vertx.setTimer(delayMs, id -> send(runId, new JsonObject().put("call_id", callId).put("status", status.wireName())
                .put("duration_seconds", duration).put("event_id", callId + ":" + status.wireName()).encode()));
    }

    private void send(long runId, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/telephony/simulator/events/" + runId))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .header(SIGNATURE_HEADER, signer.sign(body)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
            if (failure != null || response.statusCode() >= 300) {
                LOG.warnf("simulated call report for run %d not accepted: %s", runId,
                        failure != null ? failure.getMessage() : "HTTP " + response.statusCode());
            }
        });
    }

    /**
     * Rings a number through the signed inbound webhook, as a provider would; when the call is taken, it is
     * answered after the ring delay and ends after the configuration's default duration (in steps of the delay).
     */
    @Override
    public Uni<java.util.Map<String, Object>> ring(ProviderConfiguration.Simulator configuration, String to,
            String from) {
        long step = Math.max(1, configuration.ringDelayMs());
        long endsAt = System.currentTimeMillis() + 2 * step;
        String callId = "SIM-IN-" + UUID.randomUUID() + "~" + endsAt + "~" + CallStatus.COMPLETED.wireName();
        String body = new JsonObject().put("to", to).put("from", from == null ? "+15550000000" : from)
                .put("call_id", callId).encode();
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/telephony/simulator/inbound"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .header(SIGNATURE_HEADER, signer.sign(body)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return Uni.createFrom().completionStage(() -> http.sendAsync(request, HttpResponse.BodyHandlers.ofString()))
                .map(response -> {
                    JsonObject answer = new JsonObject(response.body());
                    if ("stream".equals(answer.getString("action"))) {
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
