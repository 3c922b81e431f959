package dev.voiceagent.application.telephony;

import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** Out-port: whether an organization can place outbound calls; empty when ready, else the reason. */
public interface OutboundReadiness {

    Uni<Optional<String>> blockedReason(long organizationId);
}
