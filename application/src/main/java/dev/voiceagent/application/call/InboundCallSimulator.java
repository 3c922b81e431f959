package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import java.util.Map;

/**
 * Out-port: the simulator's inbound calls. It rings a number the way a provider would (its signed inbound
 * webhook) and, when the call is taken, reports its progress and end like any simulated call.
 */
public interface InboundCallSimulator {

    /** The inbound webhook's answer: {action: stream, stream_url, workflow_run_id} or {action: reject, reason}. */
    Uni<Map<String, Object>> ring(ProviderConfiguration.Simulator configuration, String to, String from);
}
