package dev.voiceagent.application.model;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface ListVoicesUseCase {

    /** Filters (each may be null): language, free text, gender and accent, all case-insensitive. */
    record Filters(String language, String text, String gender, String accent) {
    }

    Uni<VoicesView> voices(Principal principal, String provider, Filters filters);
}
