package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

/** Refused (ConflictException) while phone numbers use the trunk. */
public interface RemoveTrunkUseCase {

    Uni<Void> remove(Principal principal, long configurationId, long trunkId);
}
