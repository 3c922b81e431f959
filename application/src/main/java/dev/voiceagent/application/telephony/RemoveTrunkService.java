package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

@Singleton
public class RemoveTrunkService implements RemoveTrunkUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final TrunkRepository trunks;

    public RemoveTrunkService(TelephonyConfigurationRepository configurations, TrunkRepository trunks) {
        this.configurations = configurations;
        this.trunks = trunks;
    }

    @Override
    public Uni<Void> remove(Principal principal, long configurationId, long trunkId) {
        long org = principal.organizationId();
        return Trunks.find(configurations, trunks, org, configurationId, trunkId)
                .chain(t -> trunks.delete(org, configurationId, trunkId));
    }
}
