package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.Trunk;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.Map;

@Singleton
public class ChangeTrunkService implements ChangeTrunkUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final TrunkRepository trunks;
    private final Clock clock;

    public ChangeTrunkService(TelephonyConfigurationRepository configurations, TrunkRepository trunks, Clock clock) {
        this.configurations = configurations;
        this.trunks = trunks;
        this.clock = clock;
    }

    @Override
    public Uni<TrunkView> change(Principal principal, long configurationId, long trunkId, String name, Boolean enabled,
            Map<String, Object> settings) {
        long org = principal.organizationId();
        return Trunks.find(configurations, trunks, org, configurationId, trunkId)
                .map(TrunkView::trunk)
                .chain(t -> trunks.update(new Trunk(t.id(), org, configurationId, name == null ? t.name() : name,
                        enabled == null ? t.enabled() : enabled, settings == null ? t.settings() : settings,
                        t.createdAt(), clock.instant())));
    }
}
