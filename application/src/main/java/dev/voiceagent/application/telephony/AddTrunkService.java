package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.Trunk;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.Map;

@Singleton
public class AddTrunkService implements AddTrunkUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final TrunkRepository trunks;
    private final Clock clock;

    public AddTrunkService(TelephonyConfigurationRepository configurations, TrunkRepository trunks, Clock clock) {
        this.configurations = configurations;
        this.trunks = trunks;
        this.clock = clock;
    }

    @Override
    public Uni<TrunkView> add(Principal principal, long configurationId, String name, boolean enabled,
            Map<String, Object> settings) {
        long org = principal.organizationId();
        var now = clock.instant();
        return Trunks.trunkCapable(configurations, org, configurationId)
                .chain(() -> trunks.insert(new Trunk(null, org, configurationId, name, enabled, settings, now, now)));
    }
}
