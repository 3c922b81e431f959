package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.Trunk;
import io.smallrye.mutiny.Uni;
import java.util.List;

@Singleton
public class ListTrunksService implements ListTrunksUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final TrunkRepository trunks;

    public ListTrunksService(TelephonyConfigurationRepository configurations, TrunkRepository trunks) {
        this.configurations = configurations;
        this.trunks = trunks;
    }

    @Override
    public Uni<List<TrunkView>> list(Principal principal, long configurationId) {
        long org = principal.organizationId();
        return Trunks.trunkCapable(configurations, org, configurationId).chain(() -> trunks.list(org, configurationId));
    }
}
