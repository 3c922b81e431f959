package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.Provider;
import io.smallrye.mutiny.Uni;

public interface AuthenticateCallReportUseCase {

    /**
     * Only the signature check of {@link ProcessCallReportUseCase#process}: for a report whose content is
     * not understood, so that an unsigned request learns nothing about what it sent (403 before 400).
     */
    Uni<Void> authenticate(long runId, Provider provider, SignatureCheck signature);
}
