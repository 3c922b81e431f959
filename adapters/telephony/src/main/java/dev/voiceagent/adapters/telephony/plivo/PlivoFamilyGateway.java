package dev.voiceagent.adapters.telephony.plivo;

import static dev.voiceagent.adapters.telephony.twilio.Twiml.element;
import static dev.voiceagent.adapters.telephony.twilio.Twiml.response;

import dev.voiceagent.adapters.telephony.CallbackSigner;
import dev.voiceagent.adapters.telephony.CallbackUrls;
import dev.voiceagent.adapters.telephony.CarrierApis;
import dev.voiceagent.adapters.telephony.CarrierNumbers;
import dev.voiceagent.adapters.telephony.twilio.Twiml;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallGatewayException;
import dev.voiceagent.application.call.OutboundCall;
import dev.voiceagent.application.call.Transfer;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A carrier of Plivo's platform ({@link PlivoFamily}): the call placed through its Call API with our answer, ring and
 * hang-up webhooks; when the callee answers, the carrier fetches the answer URL, whose XML streams the call's audio to
 * the voice runtime's signed address ({@code <Stream bidirectional="true" keepCallAlive="true"
 * contentType="audio/x-mulaw;rate=8000">}). The call API names a call by its request_uuid until it rings, then by its
 * CallUUID, which hanging up (DELETE) and transfers (the call's {@code aleg_url} moved to a {@code <Dial>}) take: the
 * webhooks name both, and the call is known by its CallUUID from the first of them on.
 */
public abstract class PlivoFamilyGateway implements CallGateway {

    private final PlivoFamily family;
    private final String callbackBase;
    private final CallbackSigner signer;

    protected PlivoFamilyGateway(PlivoFamily family, String callbackBaseUrl, CallbackSigner signer) {
        this.family = family;
        this.callbackBase = CallbackUrls.base(callbackBaseUrl);
        this.signer = signer;
    }

    @Override
    public Provider provider() {
        return family.provider();
    }

    public PlivoFamily family() {
        return family;
    }

    private String route() {
        return callbackBase + "/api/v1/telephony/" + family.route();
    }

    /**
     * The answer URL of an outbound call: its XML streams the call to the run's media address (the run's workflow and
     * organization in the query, which the media address is signed for).
     */
    public String answerUrl(long workflowId, long organizationId, long runId) {
        return route() + "/answer/" + runId + "?workflow_id=" + workflowId + "&organization_id=" + organizationId;
    }

    public String hangupUrl(long runId) {
        return route() + "/hangup-callback/" + runId;
    }

    public String ringUrl(long runId) {
        return route() + "/ring-callback/" + runId;
    }

    public String machineDetectionUrl(long runId) {
        return route() + "/machine-detection/" + runId;
    }

    /** A transfer's XML address: its destination and ring time in the query, signed with this service's key. */
    public String transferUrl(long runId, String to, int timeoutSeconds) {
        return route() + "/transfer/" + runId + "?to=" + URLEncoder.encode(to, StandardCharsets.UTF_8) + "&timeout="
                + timeoutSeconds + "&sig=" + signer.sign(transferSigned(runId, to, timeoutSeconds));
    }

    /** Whether a transfer address's query is one this service wrote. */
    public boolean transferSigned(long runId, String to, int timeoutSeconds, String sig) {
        return to != null && signer.verify(transferSigned(runId, to, timeoutSeconds), sig);
    }

    private static String transferSigned(long runId, String to, int timeoutSeconds) {
        return "transfer:" + runId + ":" + timeoutSeconds + ":" + to;
    }

    /** The {@code <Dial>} of a transfer: a {@code <User>} for a sip: address, a {@code <Number>} otherwise. */
    public static Twiml dial(String to, int timeoutSeconds) {
        String destination = to.strip();
        boolean sip = destination.regionMatches(true, 0, "sip:", 0, 4);
        return response(element("Dial").attribute("timeout", timeoutSeconds)
                .with(element(sip ? "User" : "Number").text(sip ? destination : CarrierNumbers.digits(destination))));
    }

    @Override
    public Uni<String> originate(OutboundCall call) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("from", CarrierNumbers.digits(call.from()));
        body.put("to", CarrierNumbers.digits(call.to()));
        body.put("answer_url", answerUrl(call.workflowId(), call.organizationId(), call.runId()));
        body.put("answer_method", "POST");
        body.put("hangup_url", hangupUrl(call.runId()));
        body.put("hangup_method", "POST");
        body.put("ring_url", ringUrl(call.runId()));
        body.put("ring_method", "POST");
        if (call.detectMachine() && detectsMachines()) {
            body.put("machine_detection", "true");
            body.put("machine_detection_url", machineDetectionUrl(call.runId()));
            body.put("machine_detection_method", "POST");
        }
        return create(call.configuration(), body).map(this::callId).onFailure().transform(this::refused);
    }

    /** Whether the carrier tells a person from a machine (Plivo's machine_detection). */
    protected abstract boolean detectsMachines();

    private String callId(Map<String, Object> response) {
        for (String key : new String[] {"request_uuid", "call_uuid", "RequestUUID", "CallUUID"}) {
            if (response.get(key) instanceof String id && !id.isBlank()) {
                return id;
            }
        }
        throw new CallGatewayException(name() + " answered without a request_uuid", null);
    }

    @Override
    public Uni<Void> hangUp(ProviderConfiguration configuration, String providerCallId) {
        return delete(configuration, providerCallId)
                .onFailure(CarrierApis::notFound).recoverWithNull() // the call had ended already
                .onFailure().transform(this::refused);
    }

    /**
     * The live call's leg fetches the transfer's XML: a {@code <Dial>} of the destination, which rings it up to the
     * timeout and bridges the caller when it answers; the stream to the runtime ends with the XML it was in.
     */
    @Override
    public Uni<Void> transfer(ProviderConfiguration configuration, String providerCallId, Transfer transfer) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("legs", "aleg");
        body.put("aleg_url", transferUrl(transfer.runId(), transfer.destination().strip(), transfer.timeoutSeconds()));
        body.put("aleg_method", "POST");
        return update(configuration, providerCallId, body).replaceWithVoid().onFailure().transform(this::refused);
    }

    /**
     * A live call is in progress (or ringing); once it ended, its record says how ({@code call_state}, or the hang-up
     * cause's name).
     */
    @Override
    public Uni<Optional<CallStatus>> fetchStatus(ProviderConfiguration configuration, String providerCallId) {
        return get(configuration, providerCallId, "live")
                .map(live -> "ringing".equals(String.valueOf(live.get("call_status")).toLowerCase(Locale.ROOT))
                        ? Optional.of(CallStatus.RINGING) : Optional.of(CallStatus.IN_PROGRESS))
                .onFailure(CarrierApis::notFound).recoverWithUni(() -> get(configuration, providerCallId, null)
                        .map(record -> PlivoStatuses.ofRecord(record)))
                .onFailure(CarrierApis::notFound).recoverWithItem(Optional.empty())
                .onFailure().transform(this::refused);
    }

    private String name() {
        return family.provider().displayName();
    }

    private Throwable refused(Throwable failure) {
        return CarrierApis.refused(name(), failure);
    }

    protected abstract Uni<Map<String, Object>> create(ProviderConfiguration configuration, Map<String, Object> body);

    protected abstract Uni<Map<String, Object>> update(ProviderConfiguration configuration, String callUuid,
            Map<String, Object> body);

    protected abstract Uni<Void> delete(ProviderConfiguration configuration, String callUuid);

    protected abstract Uni<Map<String, Object>> get(ProviderConfiguration configuration, String callUuid,
            String status);
}
