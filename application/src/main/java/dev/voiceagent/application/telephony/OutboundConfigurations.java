package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import java.util.Comparator;
import java.util.List;

/**
 * Which configuration places an organization's outbound calls: the one asked for (it must be ready),
 * else the first ready active one, the default first. None, or none ready, is a 400 that says why.
 */
public final class OutboundConfigurations {

    public static final String NONE = "No telephony configuration: configure telephony first";

    private OutboundConfigurations() {
    }

    public static Uni<TelephonyConfigurationView> resolve(TelephonyConfigurationRepository configurations, long org,
            Long requested) {
        if (requested != null) {
            return configurations.find(org, requested).map(found -> {
                TelephonyConfigurationView view = found.orElseThrow(
                        () -> new ResourceNotFoundException("Telephony configuration not found"));
                view.outboundBlockedReason().ifPresent(reason -> {
                    throw new DomainRuleViolation(notReady(view, reason));
                });
                return view;
            });
        }
        return configurations.list(org).map(views -> {
            List<TelephonyConfigurationView> candidates = views.stream().filter(v -> v.configuration().active())
                    .sorted(Comparator.comparing((TelephonyConfigurationView v) -> !v.configuration().defaultOutbound()))
                    .toList();
            if (candidates.isEmpty()) {
                throw new DomainRuleViolation(NONE);
            }
            return candidates.stream().filter(TelephonyConfigurationView::readyForOutbound).findFirst()
                    .orElseThrow(() -> new DomainRuleViolation(notReady(candidates.getFirst(),
                            candidates.getFirst().outboundBlockedReason().orElseThrow())));
        });
    }

    private static String notReady(TelephonyConfigurationView view, String reason) {
        return "'" + view.configuration().name() + "' is not ready for outbound calls. " + reason;
    }
}
