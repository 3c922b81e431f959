package dev.voiceagent.adapters.telephony.vonage;

import dev.voiceagent.adapters.telephony.CarrierNumbers;
import dev.voiceagent.application.call.AuthenticateCallReportUseCase;
import dev.voiceagent.application.call.CallReport;
import dev.voiceagent.application.call.FindCallRunUseCase;
import dev.voiceagent.application.call.InboundCallUseCase;
import dev.voiceagent.application.call.InboundCallUseCase.Answer;
import dev.voiceagent.application.call.InboundCallUseCase.InboundCall;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.call.ReportAnsweringMachineUseCase;
import dev.voiceagent.application.call.ReportAnsweringMachineUseCase.Verdict;
import dev.voiceagent.application.call.SignatureCheck;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.annotation.security.PermitAll;
import jakarta.inject.Singleton;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Vonage's webhooks, JSON bodies signed by Vonage ({@link VonageJwt#valid}: HS256 with the account's signature secret,
 * its api_key, the body's payload_hash) and checked before anything changes:
 * <ul>
 * <li>events of a run's call ({@code /vonage/events/{run}}, its event_url): its status (started, ringing, answered,
 * completed with its duration, busy, failed, timeout, unanswered, cancelled, rejected) and machine detection's verdict
 * (status human or machine); events of the call's other leg (the websocket's, its own uuid) are acknowledged and
 * ignored;</li>
 * <li>the application's events ({@code /vonage/events}): the run found by the call's uuid;</li>
 * <li>inbound calls, the application's answer URL ({@code /vonage/inbound}, or {@code /inbound/run}): answered with an
 * NCCO that streams the call to the run's media address, or an empty NCCO (the call ends) when refused.</li>
 * </ul>
 */
@Path("/api/v1/telephony/vonage")
@PermitAll
@Singleton
public class VonageResource {

    private final ProcessCallReportUseCase reports;
    private final AuthenticateCallReportUseCase authenticator;
    private final ReportAnsweringMachineUseCase amd;
    private final FindCallRunUseCase runs;
    private final InboundCallUseCase inbound;
    private final VonageCallGateway gateway;
    private final Clock clock;

    public VonageResource(ProcessCallReportUseCase reports, AuthenticateCallReportUseCase authenticator,
            ReportAnsweringMachineUseCase amd, FindCallRunUseCase runs, InboundCallUseCase inbound,
            VonageCallGateway gateway, Clock clock) {
        this.reports = reports;
        this.authenticator = authenticator;
        this.amd = amd;
        this.runs = runs;
        this.inbound = inbound;
        this.gateway = gateway;
        this.clock = clock;
    }

    /** The check of a webhook against a Vonage configuration's signature secret and api key. */
    private SignatureCheck signed(String authorization, String body) {
        return configuration -> configuration instanceof ProviderConfiguration.Vonage vonage
                && VonageJwt.valid(authorization, vonage.signatureSecret(), vonage.apiKey(), body, clock.instant());
    }

    private static JsonObject json(String body) {
        try {
            return body == null || body.isBlank() ? null : new JsonObject(body);
        } catch (DecodeException | ClassCastException e) {
            return null;
        }
    }

    private static Response reply(int status, Map<String, Object> body) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body).build();
    }

    @POST
    @Path("/events/{run_id}")
    public Uni<Response> event(@PathParam("run_id") long runId, @HeaderParam("Authorization") String authorization,
            String body) {
        SignatureCheck signed = signed(authorization, body);
        JsonObject event = json(body);
        String status = event == null ? null : event.getString("status");
        String uuid = event == null ? null : event.getString("uuid");
        if (uuid != null && ("human".equals(status) || "machine".equals(status))) {
            Verdict verdict = "human".equals(status) ? Verdict.HUMAN : Verdict.MACHINE;
            return authenticator.authenticate(runId, Provider.VONAGE, signed).chain(() -> amd.report(runId, verdict))
                    .replaceWith(reply(200, Map.of("status", "answering machine detection: "
                            + verdict.name().toLowerCase(Locale.ROOT))));
        }
        CallStatus mapped = VonageStatuses.map(status).orElse(null);
        if (mapped == null || uuid == null) { // signed first: an unsigned request learns nothing
            return authenticator.authenticate(runId, Provider.VONAGE, signed)
                    .replaceWith(reply(200, Map.of("status", "ignored: event not tracked")));
        }
        CallReport report = new CallReport(Provider.VONAGE, runId, uuid, mapped, seconds(event.getValue("duration")),
                uuid + ":" + status + ":" + event.getString("timestamp", ""));
        return authenticator.authenticate(runId, Provider.VONAGE, signed)
                .chain(() -> reports.process(report, signed)
                        .map(result -> reply(200, Map.of("status", result)))
                        // signed, but of the call's other leg (the websocket's own uuid): nothing of the run's call
                        .onFailure(ResourceNotFoundException.class).recoverWithItem(reply(200,
                                Map.of("status", "ignored: another leg of the call"))));
    }

    @POST
    @Path("/events")
    public Uni<Response> applicationEvent(@HeaderParam("Authorization") String authorization, String body) {
        JsonObject event = json(body);
        String uuid = event == null ? null : event.getString("uuid");
        if (uuid == null) {
            return Uni.createFrom().item(reply(400, Map.of("detail", "Not a Vonage event")));
        }
        return runs.runOfCall(Provider.VONAGE, uuid).chain(run -> run.isEmpty()
                ? Uni.createFrom().item(reply(200, Map.of("status", "ignored: unknown call")))
                : event(run.get(), authorization, body));
    }

    @POST
    @Path("/inbound")
    public Uni<Response> inbound(@HeaderParam("Authorization") String authorization, String body) {
        JsonObject call = json(body);
        if (call == null || call.getString("uuid") == null) {
            return Uni.createFrom().item(reply(400, Map.of("detail", "Not a Vonage answer webhook")));
        }
        String uuid = call.getString("uuid");
        InboundCall inboundCall = new InboundCall(Provider.VONAGE, CarrierNumbers.plus(call.getString("to")),
                CarrierNumbers.plus(call.getString("from")), uuid, signed(authorization, body));
        return inbound.answer(inboundCall).map(answer -> switch (answer) {
            case Answer.Stream s -> Response.ok(VonageCallGateway.connect(s.streamUrl(), gateway.eventUrl(s.runId()),
                    Map.of("call_uuid", uuid, "workflow_run_id", String.valueOf(s.runId()))))
                    .type(MediaType.APPLICATION_JSON).build();
            case Answer.Reject r -> Response.ok(List.of()).type(MediaType.APPLICATION_JSON).build();
        });
    }

    /** Whether a webhook to the generic inbound address is Vonage's: its bearer token says Vonage issued it. */
    public static boolean isVonage(String authorization) {
        JsonObject claims = VonageJwt.unverifiedClaims(authorization);
        return claims != null && "Vonage".equals(claims.getString("iss"));
    }

    private static Integer seconds(Object value) {
        try {
            return value == null ? null : Integer.valueOf(String.valueOf(value).strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
