package dev.voiceagent.adapters.postgres.telephony;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.application.telephony.OutboundReadiness;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * An organization can call out when one of its active configurations is ready; the default one is
 * considered first. Otherwise the reason of the first blocked configuration is given.
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresOutboundReadiness implements OutboundReadiness {

    static final String NONE = "No telephony configuration: configure telephony first";

    private final PostgresTelephonyConfigurationRepository configurations;

    public PostgresOutboundReadiness(PostgresTelephonyConfigurationRepository configurations) {
        this.configurations = configurations;
    }

    @Override
    public Uni<Optional<String>> blockedReason(long organizationId) {
        return configurations.list(organizationId).map(PostgresOutboundReadiness::reason);
    }

    static Optional<String> reason(List<TelephonyConfigurationView> views) {
        List<TelephonyConfigurationView> candidates = views.stream().filter(v -> v.configuration().active())
                .sorted(Comparator.comparing((TelephonyConfigurationView v) -> !v.configuration().defaultOutbound()))
                .toList();
        if (candidates.isEmpty()) {
            return Optional.of(NONE);
        }
        if (candidates.stream().anyMatch(TelephonyConfigurationView::readyForOutbound)) {
            return Optional.empty();
        }
        TelephonyConfigurationView first = candidates.getFirst();
        return Optional.of("'" + first.configuration().name() + "' is not ready for outbound calls. "
                + first.outboundBlockedReason().orElseThrow());
    }
}
