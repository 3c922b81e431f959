package dev.voiceagent.application.campaign;

import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.telephony.OutboundConfigurations;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.PhoneNumberView;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.telephony.CallerSelection;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.workflow.Workflow;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a running campaign dials with (its workflow, telephony configuration and caller numbers), read before the
 * organization's transaction. It changes rarely and is needed at every dispatch, so it is kept for {@link #TTL}: a
 * change is seen within that. A campaign that cannot dial gets a {@code problem} saying why (it will be paused).
 */
final class PreparedCampaigns {

    static final Duration TTL = Duration.ofSeconds(2);
    private static final int MAX_ENTRIES = 1_000;

    /** A running campaign and what it dials with; {@code problem} says why it cannot dial. */
    record Prepared(DispatchLedger.RunningCampaign running, Workflow workflow, TelephonyConfigurationView view,
            List<CallerSelection.Number> callers, String problem) {

        Campaign campaign() {
            return running.campaign();
        }

        static Prepared cannotDial(DispatchLedger.RunningCampaign running, String problem) {
            return new Prepared(running, null, null, List.of(), problem);
        }
    }

    private record Cached(Prepared prepared, Instant until) {
    }

    private final ConcurrentHashMap<Long, Cached> cache = new ConcurrentHashMap<>();
    private final WorkflowRepository workflows;
    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberRepository numbers;
    private final Map<Provider, CallGateway> gateways;
    private final Clock clock;

    PreparedCampaigns(WorkflowRepository workflows, TelephonyConfigurationRepository configurations,
            PhoneNumberRepository numbers, Map<Provider, CallGateway> gateways, Clock clock) {
        this.workflows = workflows;
        this.configurations = configurations;
        this.numbers = numbers;
        this.gateways = gateways;
        this.clock = clock;
    }

    Uni<Prepared> prepare(DispatchLedger.RunningCampaign running) {
        Instant now = clock.instant();
        long id = running.campaign().id();
        Cached hit = cache.get(id);
        if (hit != null && hit.until().isAfter(now)) {
            Prepared p = hit.prepared();
            return Uni.createFrom().item(new Prepared(running, p.workflow(), p.view(), p.callers(), p.problem()));
        }
        if (cache.size() > MAX_ENTRIES) {
            cache.values().removeIf(cached -> !cached.until().isAfter(now));
        }
        return load(running).invoke(p -> cache.put(id, new Cached(p, now.plus(TTL))));
    }

    private Uni<Prepared> load(DispatchLedger.RunningCampaign running) {
        Campaign c = running.campaign();
        long org = c.organizationId();
        return workflows.find(org, c.workflowId()).chain(workflow -> {
            if (workflow.isEmpty()) {
                return Uni.createFrom().item(Prepared.cannotDial(running, "The campaign's workflow no longer exists"));
            }
            return OutboundConfigurations.resolve(configurations, org, c.telephonyConfigurationId())
                    .chain(view -> gateways.containsKey(view.configuration().provider())
                            ? numbers.list(org, view.configuration().id()).map(list -> new Prepared(running,
                                    workflow.get(), view, callers(list), null))
                            : Uni.createFrom().item(new Prepared(running, workflow.get(), view, List.of(),
                                    view.configuration().provider().displayName() + " has no outbound gateway")))
                    .onFailure().recoverWithItem(failure -> new Prepared(running, workflow.get(), null, List.of(),
                            "Telephony is not ready: " + failure.getMessage()));
        });
    }

    private static List<CallerSelection.Number> callers(List<PhoneNumberView> list) {
        return list.stream().map(PhoneNumberView::number)
                .map(n -> new CallerSelection.Number(n.id(), n.normalized(), n.active(), n.defaultCaller())).toList();
    }
}
