package dev.voiceagent.adapters.telephony;

import static dev.voiceagent.adapters.telephony.twilio.Twiml.element;
import static dev.voiceagent.adapters.telephony.twilio.Twiml.response;

import dev.voiceagent.adapters.telephony.cloudonix.CloudonixResource;
import dev.voiceagent.adapters.telephony.plivo.PlivoFamily;
import dev.voiceagent.adapters.telephony.plivo.PlivoWebhooks;
import dev.voiceagent.adapters.telephony.simulator.SimulatorCallGateway;
import dev.voiceagent.adapters.telephony.telnyx.TelnyxCallGateway;
import dev.voiceagent.adapters.telephony.telnyx.TelnyxEvents;
import dev.voiceagent.adapters.telephony.telnyx.TelnyxSignature;
import dev.voiceagent.adapters.telephony.twilio.TwilioSignature;
import dev.voiceagent.adapters.telephony.twilio.TwilioStreams;
import dev.voiceagent.adapters.telephony.twilio.Twiml;
import dev.voiceagent.adapters.telephony.vonage.VonageResource;
import dev.voiceagent.application.call.CallGatewayException;
import dev.voiceagent.application.call.CallReport;
import dev.voiceagent.application.call.FindCallRunUseCase;
import dev.voiceagent.application.call.InboundCallUseCase;
import dev.voiceagent.application.call.InboundCallUseCase.Answer;
import dev.voiceagent.application.call.InboundCallUseCase.InboundCall;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.call.SignatureCheck;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Inbound calls: the one address the reference's dashboard tells users to configure (POST
 * /api/v1/telephony/inbound/run, whatever the provider: the request tells which) and each gateway's own route.
 * The webhook must be signed by the provider account of the number called (403 otherwise, before anything is
 * created); the answer is the provider's own instruction: stream the media to the voice runtime, or refuse.
 */
@Path("/api/v1/telephony")
@PermitAll
public class InboundCallResource {

    private static final Logger LOG = Logger.getLogger(InboundCallResource.class);
    static final String RUN = "/api/v1/telephony/inbound/run";

    private final InboundCallUseCase inbound;
    private final FindCallRunUseCase runs;
    private final ProcessCallReportUseCase reports;
    private final TelnyxCallGateway telnyx;
    private final PlivoWebhooks plivo;
    private final VonageResource vonage;
    private final CloudonixResource cloudonix;
    private final CallbackSigner signer;
    private final String callbackBase;
    private final Clock clock;
    private final Duration tolerance;

    public InboundCallResource(InboundCallUseCase inbound, FindCallRunUseCase runs, ProcessCallReportUseCase reports,
            TelnyxCallGateway telnyx, PlivoWebhooks plivo, VonageResource vonage,
            CloudonixResource cloudonix,
            CallbackSigner signer, @ConfigProperty(name = "voiceagent.callbacks.base-url") String callbackBase,
            Clock clock,
            @ConfigProperty(name = "voiceagent.telnyx.signature-tolerance", defaultValue = "PT5M") Duration tolerance) {
        this.inbound = inbound;
        this.runs = runs;
        this.reports = reports;
        this.telnyx = telnyx;
        this.plivo = plivo;
        this.vonage = vonage;
        this.cloudonix = cloudonix;
        this.signer = signer;
        this.callbackBase = CallbackUrls.base(callbackBase);
        this.clock = clock;
        this.tolerance = tolerance;
    }

    @POST
    @Path("/inbound/run")
    public Uni<Response> run(@HeaderParam("Content-Type") String contentType,
            @HeaderParam("X-Twilio-Signature") String twilioSignature,
            @HeaderParam("telnyx-signature-ed25519") String telnyxSignature,
            @HeaderParam("telnyx-timestamp") String telnyxTimestamp,
            @HeaderParam(SimulatorCallGateway.SIGNATURE_HEADER) String simulatorSignature, @Context HttpHeaders headers,
            String body) {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        var plivoFamily = PlivoFamily.signing(headers); // Plivo's and Vobiz's posts are forms too: told by signature
        if (plivoFamily.isPresent()) {
            return plivo.inbound(plivoFamily.get(), RUN, headers, body);
        }
        if (type.startsWith(MediaType.APPLICATION_FORM_URLENCODED)) {
            return twilio(RUN, twilioSignature, body);
        }
        if (VonageResource.isVonage(headers.getHeaderString("Authorization"))) {
            return vonage.inbound(headers.getHeaderString("Authorization"), body);
        }
        if (CloudonixResource.isCloudonix(headers.getHeaderString("User-Agent"), headers.getHeaderString("X-CX-Session"),
                body)) {
            return cloudonix.inbound(headers.getHeaderString("Authorization"), body);
        }
        if (simulatorSignature != null) {
            return simulator(simulatorSignature, body);
        }
        if (telnyxSignature != null || telnyxTimestamp != null) {
            return telnyx(telnyxSignature, telnyxTimestamp, body);
        }
        return Uni.createFrom().item(json(400, Map.of("detail", "Not an inbound call webhook of a known provider")));
    }

    @POST
    @Path("/twilio/inbound")
    public Uni<Response> twilioInbound(@HeaderParam("X-Twilio-Signature") String signature, String body) {
        return twilio("/api/v1/telephony/twilio/inbound", signature, body);
    }

    @POST
    @Path("/telnyx/inbound")
    public Uni<Response> telnyxInbound(@HeaderParam("telnyx-signature-ed25519") String signature,
            @HeaderParam("telnyx-timestamp") String timestamp, String body) {
        return telnyx(signature, timestamp, body);
    }

    @POST
    @Path("/simulator/inbound")
    public Uni<Response> simulatorInbound(@HeaderParam(SimulatorCallGateway.SIGNATURE_HEADER) String signature,
            String body) {
        return simulator(signature, body);
    }

    // --- Twilio -------------------------------------------------------------------------------------------

    private Uni<Response> twilio(String path, String signature, String body) {
        Map<String, List<String>> params = FormBody.parse(body == null ? "" : body);
        String url = callbackBase + path;
        String account = FormBody.first(params, "AccountSid");
        SignatureCheck signed = configuration -> configuration instanceof ProviderConfiguration.Twilio t
                && (account == null || account.equals(t.accountSid()))
                && TwilioSignature.valid(t.authToken(), url, params, signature);
        InboundCall call = new InboundCall(Provider.TWILIO, FormBody.first(params, "To"), FormBody.first(params, "From"),
                FormBody.first(params, "CallSid"), signed);
        return inbound.answer(call).map(answer -> Response.ok(twiml(answer, callbackBase)).type("text/xml").build());
    }

    static String twiml(Answer answer, String callbackBase) {
        Twiml twiml = switch (answer) {
            case Answer.Stream s -> TwilioStreams.connect(s.streamUrl(), s.runId(), callbackBase);
            case Answer.Reject r -> response("busy".equals(r.reason())
                    ? element("Reject").attribute("reason", "busy") : element("Reject"));
        };
        return twiml.document();
    }

    // --- Telnyx -------------------------------------------------------------------------------------------

    private Uni<Response> telnyx(String signature, String timestamp, String body) {
        JsonObject data;
        try {
            data = new JsonObject(body == null ? "" : body).getJsonObject("data");
        } catch (DecodeException | ClassCastException e) {
            data = null;
        }
        SignatureCheck signed = configuration -> configuration instanceof ProviderConfiguration.Telnyx t
                && TelnyxSignature.valid(t.webhookPublicKey(), timestamp, body, signature, clock.instant(), tolerance);
        if (data == null || data.getString("event_type") == null) {
            return Uni.createFrom().item(json(400, Map.of("detail", "Not a Telnyx event")));
        }
        JsonObject payload = data.getJsonObject("payload", new JsonObject());
        String callControlId = payload.getString("call_control_id");
        if ("call.initiated".equals(data.getString("event_type")) && "incoming".equals(payload.getString("direction"))) {
            InboundCall call = new InboundCall(Provider.TELNYX, payload.getString("to"), payload.getString("from"),
                    callControlId, signed);
            return inbound.answer(call).chain(answer -> switch (answer) {
                case Answer.Stream s -> telnyx.answerAndStream(s.configuration(), callControlId, s.streamUrl(), s.runId())
                        .replaceWith(json(200, Map.of("status", "answered", "workflow_run_id", s.runId())));
                case Answer.Reject r -> r.configuration() == null
                        ? Uni.createFrom().item(json(200, Map.of("status", "ignored: " + r.reason())))
                        : telnyx.reject(r.configuration(), callControlId, "busy".equals(r.reason()))
                                .replaceWith(json(200, Map.of("status", "rejected: " + r.reason())));
            }).onFailure(CallGatewayException.class).recoverWithItem(failure -> {
                LOG.warnf("inbound Telnyx call %s could not be handled: %s", callControlId, failure.getMessage());
                return json(200, Map.of("status", "failed: " + failure.getMessage()));
            });
        }
        // a later event of a call this service took: a report for its run, checked against that run's account
        CallStatus status = TelnyxEvents.map(data.getString("event_type"), payload.getString("hangup_cause")).orElse(null);
        if (status == null || data.getString("id") == null) {
            return Uni.createFrom().item(json(200, Map.of("status", "ignored: event not tracked")));
        }
        JsonObject event = data;
        return runs.runOfCall(Provider.TELNYX, callControlId).chain(run -> run.isEmpty()
                ? Uni.createFrom().item(json(200, Map.of("status", "ignored: unknown call")))
                : reports.process(new CallReport(Provider.TELNYX, run.get(), callControlId, status, null,
                        event.getString("id")), signed).map(result -> json(200, Map.of("status", result))));
    }

    // --- the simulator ------------------------------------------------------------------------------------

    private Uni<Response> simulator(String signature, String body) {
        if (!signer.verify(body == null ? "" : body, signature)) {
            return Uni.createFrom().item(json(403, Map.of("detail", "Invalid signature")));
        }
        JsonObject call;
        try {
            call = new JsonObject(body);
        } catch (DecodeException e) {
            return Uni.createFrom().item(json(400, Map.of("detail", "Invalid simulated call")));
        }
        InboundCall inboundCall = new InboundCall(Provider.SIMULATOR, call.getString("to"), call.getString("from"),
                call.getString("call_id"), SignatureCheck.VERIFIED_BY_ADAPTER);
        return inbound.answer(inboundCall).map(answer -> switch (answer) {
            case Answer.Stream s -> json(200, Map.of("action", "stream", "stream_url", s.streamUrl(),
                    "workflow_run_id", s.runId()));
            case Answer.Reject r -> json(200, Map.of("action", "reject", "reason", r.reason()));
        });
    }

    private static Response json(int status, Map<String, Object> body) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body).build();
    }
}
