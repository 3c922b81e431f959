package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.DispositionCodes;
import io.smallrye.mutiny.Uni;
import java.util.List;

@Singleton
public class ListDispositionCodesService implements ListDispositionCodesUseCase {

    private final TelephonyConfigurationRepository configurations;

    public ListDispositionCodesService(TelephonyConfigurationRepository configurations) {
        this.configurations = configurations;
    }

    @Override
    public Uni<List<String>> codes(Principal principal) {
        return configurations.dispositionCodesSeen(principal.organizationId()).map(DispositionCodes::all);
    }
}
