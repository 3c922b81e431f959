package dev.voiceagent.adapters.telephony.telnyx;

import dev.voiceagent.application.call.AuthenticateCallReportUseCase;
import dev.voiceagent.application.call.CallReport;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.call.ReportAnsweringMachineUseCase;
import dev.voiceagent.application.call.ReportAnsweringMachineUseCase.Verdict;
import dev.voiceagent.application.call.SignatureCheck;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Telnyx Call Control webhooks, Ed25519-verified against the raw body before anything changes. */
@Path("/api/v1/telephony/telnyx/events/{run_id}")
@PermitAll
public class TelnyxCallbackResource {

    private final ProcessCallReportUseCase reports;
    private final AuthenticateCallReportUseCase authenticator;
    private final Clock clock;
    private final Duration tolerance;
    private final ReportAnsweringMachineUseCase amd;

    public TelnyxCallbackResource(ProcessCallReportUseCase reports, AuthenticateCallReportUseCase authenticator, Clock clock,
            @ConfigProperty(name = "voiceagent.telnyx.signature-tolerance", defaultValue = "PT5M") Duration tolerance,
            ReportAnsweringMachineUseCase amd) {
        this.amd = amd;
        this.reports = reports;
        this.authenticator = authenticator;
        this.clock = clock;
        this.tolerance = tolerance;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> event(@PathParam("run_id") long runId,
            @HeaderParam("telnyx-signature-ed25519") String signature, @HeaderParam("telnyx-timestamp") String timestamp,
            String body) {
        JsonObject data;
        try {
            data = new JsonObject(body).getJsonObject("data");
        } catch (DecodeException | ClassCastException e) {
            data = null;
        }
        if (data == null || data.getString("id") == null) { // signed first: an unsigned request learns nothing
            return authenticator.authenticate(runId, Provider.TELNYX, signed(signature, timestamp, body))
                    .replaceWith(Response.status(400).type(MediaType.APPLICATION_JSON)
                            .entity(Map.of("detail", "Not a Telnyx event")).build());
        }
        JsonObject payload = data.getJsonObject("payload", new JsonObject());
        String type = data.getString("event_type", "");
        if (type.startsWith("call.machine.")) { // answering-machine detection, for the call's voice session
            Verdict verdict = machine(type, payload.getString("result"));
            return authenticator.authenticate(runId, Provider.TELNYX, signed(signature, timestamp, body))
                    .chain(() -> amd.report(runId, verdict))
                    .replaceWith(Response.ok(Map.of("status", "answering machine detection: "
                            + verdict.name().toLowerCase(Locale.ROOT))).build());
        }
        CallStatus status = TelnyxEvents.map(data.getString("event_type"), payload.getString("hangup_cause")).orElse(null);
        if (status == null) {
            return Uni.createFrom().item(Response.ok(Map.of("status", "ignored: event not tracked")).build());
        }
        CallReport report = new CallReport(Provider.TELNYX, runId, payload.getString("call_control_id"), status, null,
                data.getString("id"));
        return reports.process(report, signed(signature, timestamp, body))
                .map(result -> Response.ok(Map.of("status", result)).build());
    }

    /**
     * Telnyx's detection: {@code call.machine.detection.ended} (human, machine, not_sure), then for a machine
     * {@code call.machine.greeting.ended} (beep_detected, ended, not_sure); the premium detection's events likewise.
     */
    static Verdict machine(String type, String result) {
        String r = result == null ? "" : result;
        if (type.endsWith("greeting.ended")) {
            return "not_sure".equals(r) ? Verdict.UNKNOWN : Verdict.MACHINE_AFTER_GREETING;
        }
        if (r.startsWith("human")) {
            return Verdict.HUMAN;
        }
        return switch (r) {
            case "machine" -> Verdict.MACHINE;
            case "fax_detected" -> Verdict.FAX;
            default -> Verdict.UNKNOWN;
        };
    }

    private SignatureCheck signed(String signature, String timestamp, String body) {
        return configuration -> configuration instanceof ProviderConfiguration.Telnyx telnyx
                && TelnyxSignature.valid(telnyx.webhookPublicKey(), timestamp, body, signature, clock.instant(), tolerance);
    }
}
