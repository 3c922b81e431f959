package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.List;

/** End reasons, telephony statuses, then the organization's own codes (sorted, no duplicates). */
public interface ListDispositionCodesUseCase {

    Uni<List<String>> codes(Principal principal);
}
