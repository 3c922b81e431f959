package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.telephony.Trunk;
import io.smallrye.mutiny.Uni;

/** Steps the trunk use cases share: the configuration must be the organization's and trunk-capable. */
final class Trunks {

    static final String NOT_FOUND = "Trunk not found";

    private Trunks() {
    }

    static Uni<Void> trunkCapable(TelephonyConfigurationRepository configurations, long org, long configurationId) {
        return TelephonyConfigurations.find(configurations, org, configurationId)
                .invoke(view -> Trunk.checkProvider(view.configuration().provider())).replaceWithVoid();
    }

    /** A number may only use a trunk of its own configuration. */
    static Uni<Void> checkOwnTrunk(TrunkRepository trunks, long org, long configurationId, Long trunkId) {
        if (trunkId == null) {
            return Uni.createFrom().voidItem();
        }
        return trunks.find(org, configurationId, trunkId)
                .invoke(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND))).replaceWithVoid();
    }

    static Uni<TrunkView> find(TelephonyConfigurationRepository configurations, TrunkRepository trunks, long org,
            long configurationId, long trunkId) {
        return trunkCapable(configurations, org, configurationId)
                .chain(() -> trunks.find(org, configurationId, trunkId))
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)));
    }
}
