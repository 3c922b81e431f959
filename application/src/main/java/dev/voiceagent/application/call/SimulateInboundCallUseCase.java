package dev.voiceagent.application.call;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.Map;

/** Rings one of the organization's simulator numbers from outside, to try its inbound workflow on a laptop. */
public interface SimulateInboundCallUseCase {

    /** 404 unless the number is an active number of one of the organization's simulator configurations. */
    Uni<Map<String, Object>> ring(Principal principal, String to, String from);
}
