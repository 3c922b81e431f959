package dev.voiceagent.adapters.telephony.plivo;

import static dev.voiceagent.adapters.telephony.twilio.Twiml.element;
import static dev.voiceagent.adapters.telephony.twilio.Twiml.response;

import dev.voiceagent.adapters.telephony.CallbackUrls;
import dev.voiceagent.adapters.telephony.CarrierNumbers;
import dev.voiceagent.adapters.telephony.FormBody;
import dev.voiceagent.adapters.telephony.twilio.Twiml;
import dev.voiceagent.application.call.AuthenticateCallReportUseCase;
import dev.voiceagent.application.call.CallReport;
import dev.voiceagent.application.call.InboundCallUseCase;
import dev.voiceagent.application.call.InboundCallUseCase.Answer;
import dev.voiceagent.application.call.InboundCallUseCase.InboundCall;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.call.ReportAnsweringMachineUseCase;
import dev.voiceagent.application.call.ReportAnsweringMachineUseCase.Verdict;
import dev.voiceagent.application.call.SignatureCheck;
import dev.voiceagent.application.call.VoiceRuntime;
import dev.voiceagent.domain.telephony.CallStatus;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The webhooks of Plivo's platform ({@link PlivoFamily}), each checked against the signature of the run's (or the
 * called number's) account before anything changes, for the address this service gave the carrier:
 * <ul>
 * <li>answer (outbound): the callee answered; the call is in progress, known by its CallUUID, and the XML streams it to
 * the run's signed media address;</li>
 * <li>ring and hang-up: the call's status (ringing; completed, busy, no-answer, canceled, failed) and duration;</li>
 * <li>machine detection (Plivo): {@code Machine=true|false}, for the call's voice session;</li>
 * <li>transfer: the {@code <Dial>} a transferred call's leg fetches, its query signed by this service;</li>
 * <li>inbound: a call to one of the organization's numbers, answered with the same stream or refused with a
 * {@code <Hangup>}.</li>
 * </ul>
 */
@ApplicationScoped
public class PlivoWebhooks {

    private final ProcessCallReportUseCase reports;
    private final AuthenticateCallReportUseCase authenticator;
    private final ReportAnsweringMachineUseCase amd;
    private final InboundCallUseCase inbound;
    private final VoiceRuntime runtime;
    private final Map<PlivoFamily, PlivoFamilyGateway> gateways = new EnumMap<>(PlivoFamily.class);
    private final String callbackBase;

    public PlivoWebhooks(ProcessCallReportUseCase reports, AuthenticateCallReportUseCase authenticator,
            ReportAnsweringMachineUseCase amd, InboundCallUseCase inbound, VoiceRuntime runtime,
            Instance<PlivoFamilyGateway> gateways, @ConfigProperty(name = "voiceagent.callbacks.base-url") String callbackBase) {
        this.reports = reports;
        this.authenticator = authenticator;
        this.amd = amd;
        this.inbound = inbound;
        this.runtime = runtime;
        gateways.forEach(gateway -> this.gateways.put(gateway.family(), gateway));
        this.callbackBase = CallbackUrls.base(callbackBase);
    }

    private PlivoFamilyGateway gateway(PlivoFamily family) {
        return gateways.get(family);
    }

    /** The XML that streams a call to the voice runtime, both ways, μ-law at 8 kHz (the dialect's format). */
    static Twiml stream(String streamUrl) {
        return response(element("Stream").attribute("bidirectional", true).attribute("keepCallAlive", true)
                .attribute("contentType", "audio/x-mulaw;rate=8000").text(streamUrl));
    }

    private static Response xml(Twiml twiml) {
        return Response.ok(twiml.document()).type(MediaType.APPLICATION_XML).build();
    }

    private static Response json(int status, Map<String, Object> body) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body).build();
    }

    /** An outbound call answered: in progress under its CallUUID, streamed to the run's media address. */
    public Uni<Response> answer(PlivoFamily family, long workflowId, long organizationId, long runId,
            HttpHeaders headers, String body) {
        Map<String, List<String>> params = FormBody.parse(body);
        SignatureCheck signed = family.signature(gateway(family).answerUrl(workflowId, organizationId, runId), params,
                headers);
        String callUuid = FormBody.first(params, "CallUUID");
        String url = runtime.streamUrl(organizationId, workflowId, runId).orElse(null);
        if (callUuid == null || url == null) {
            return authenticator.authenticate(runId, family.provider(), signed).replaceWith(xml(response(
                    element("Hangup"))));
        }
        CallReport answered = new CallReport(family.provider(), runId, callUuid, CallStatus.IN_PROGRESS, null,
                callUuid + ":answered", FormBody.first(params, "RequestUUID"));
        return reports.process(answered, signed).replaceWith(xml(stream(url)));
    }

    /** A ring or hang-up webhook: the call's status for its run. */
    public Uni<Response> status(PlivoFamily family, String url, long runId, HttpHeaders headers, String body) {
        Map<String, List<String>> params = FormBody.parse(body);
        SignatureCheck signed = family.signature(url, params, headers);
        String callUuid = FormBody.first(params, "CallUUID");
        String reported = FormBody.first(params, "CallStatus");
        CallStatus status = PlivoStatuses.map(reported).orElse(null);
        if (status == null || callUuid == null) { // signed first: an unsigned request learns nothing
            return authenticator.authenticate(runId, family.provider(), signed).replaceWith(json(200,
                    Map.of("status", "ignored: status not tracked")));
        }
        CallReport report = new CallReport(family.provider(), runId, callUuid, status,
                seconds(FormBody.first(params, "Duration")), callUuid + ":" + reported.toLowerCase(Locale.ROOT),
                FormBody.first(params, "RequestUUID"));
        return reports.process(report, signed).map(result -> json(200, Map.of("status", result)));
    }

    public String ringUrl(PlivoFamily family, long runId) {
        return gateway(family).ringUrl(runId);
    }

    public String hangupUrl(PlivoFamily family, long runId) {
        return gateway(family).hangupUrl(runId);
    }

    /** Plivo's machine detection: {@code Machine=true} a machine, {@code false} a person. */
    public Uni<Response> machine(PlivoFamily family, long runId, HttpHeaders headers, String body) {
        Map<String, List<String>> params = FormBody.parse(body);
        SignatureCheck signed = family.signature(gateway(family).machineDetectionUrl(runId), params, headers);
        String machine = FormBody.first(params, "Machine");
        Verdict verdict = "true".equalsIgnoreCase(machine) ? Verdict.MACHINE
                : "false".equalsIgnoreCase(machine) ? Verdict.HUMAN : Verdict.UNKNOWN;
        return authenticator.authenticate(runId, family.provider(), signed).chain(() -> amd.report(runId, verdict))
                .replaceWith(json(200, Map.of("status", "answering machine detection: "
                        + verdict.name().toLowerCase(Locale.ROOT))));
    }

    /** The {@code <Dial>} of a transfer, for the address this service signed when it moved the call's leg. */
    public Uni<Response> transfer(PlivoFamily family, long runId, String to, int timeout, String sig,
            HttpHeaders headers, String body) {
        PlivoFamilyGateway gateway = gateway(family);
        // the run's call first (another's run: 404), then this service's signature of the destination and the
        // carrier's of the request (403)
        SignatureCheck signed = !gateway.transferSigned(runId, to, timeout, sig) ? configuration -> false
                : family.signature(gateway.transferUrl(runId, to, timeout), FormBody.parse(body), headers);
        return authenticator.authenticate(runId, family.provider(), signed)
                .map(ok -> xml(PlivoFamilyGateway.dial(to, timeout))); // built once signed: to is then present
    }

    /** An inbound call, posted to {@code path} (the address the carrier's application was given). */
    public Uni<Response> inbound(PlivoFamily family, String path, HttpHeaders headers, String body) {
        Map<String, List<String>> params = FormBody.parse(body);
        SignatureCheck signed = family.signature(callbackBase + path, params, headers);
        InboundCall call = new InboundCall(family.provider(), CarrierNumbers.plus(FormBody.first(params, "To")),
                CarrierNumbers.plus(FormBody.first(params, "From")), FormBody.first(params, "CallUUID"), signed);
        return inbound.answer(call).map(answer -> switch (answer) {
            case Answer.Stream s -> xml(stream(s.streamUrl()));
            case Answer.Reject r -> xml(response(element("Hangup").attribute("reason",
                    "busy".equals(r.reason()) ? "busy" : "rejected")));
        });
    }

    private static Integer seconds(String value) {
        try {
            return value == null || value.isBlank() ? null : Integer.valueOf(value.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
