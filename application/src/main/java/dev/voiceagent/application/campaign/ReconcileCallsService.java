package dev.voiceagent.application.campaign;

import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallReport;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.call.SignatureCheck;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An attempt whose lease expired is asked about at its provider: a final status is applied like a
 * report (so a campaign contact is retried or finished as usual), a live call keeps its extended
 * lease, and a call the provider does not know (or that never reached it) is closed as an error.
 * Provider outages leave the attempt for the next round instead of guessing.
 */
public class ReconcileCallsService implements ReconcileCallsUseCase {

    private static final System.Logger LOG = System.getLogger(ReconcileCallsService.class.getName());
    static final int BATCH = 100;

    private final DispatchLedger ledger;
    private final TelephonyConfigurationRepository configurations;
    private final ProcessCallReportUseCase reports;
    private final Map<Provider, CallGateway> gateways = new HashMap<>();
    private final Clock clock;
    private final Duration lease;
    private final Duration staleAfter;

    /** @param staleAfter a call this old that the provider cannot tell about is closed, not retried forever */
    public ReconcileCallsService(DispatchLedger ledger, TelephonyConfigurationRepository configurations,
            ProcessCallReportUseCase reports, List<CallGateway> gateways, Clock clock, Duration lease,
            Duration staleAfter) {
        this.staleAfter = staleAfter;
        this.ledger = ledger;
        this.configurations = configurations;
        this.reports = reports;
        gateways.forEach(g -> this.gateways.put(g.provider(), g));
        this.clock = clock;
        this.lease = lease;
    }

    @Override
    public Uni<Integer> reconcile() {
        return ledger.claimExpiredLeases(clock.instant(), lease, BATCH).chain(expired -> expired.isEmpty()
                ? Uni.createFrom().item(0)
                : Uni.join().all(expired.stream().map(this::reconcile).toList()).andFailFast().replaceWith(expired.size()));
    }

    private Uni<Void> reconcile(DispatchLedger.ExpiredAttempt attempt) {
        CallGateway gateway = gateways.get(attempt.provider());
        if (attempt.providerCallId() == null || gateway == null || attempt.configurationId() == null) {
            return close(attempt, "the call never reached the provider before its lease expired");
        }
        return configurations.find(attempt.organizationId(), attempt.configurationId())
                .chain(view -> view.isEmpty() ? close(attempt, "its telephony configuration no longer exists")
                        : gateway.fetchStatus(view.get().configuration().configuration(), attempt.providerCallId())
                                .chain(status -> {
                                    if (status.isEmpty()) {
                                        return close(attempt, "the provider does not know the call");
                                    }
                                    if (!status.get().isFinal()) {
                                        return Uni.createFrom().voidItem(); // still live: the lease was extended
                                    }
                                    return apply(attempt, status.get());
                                }))
                .onFailure().recoverWithUni(failure -> {
                    if (attempt.startedAt().isBefore(clock.instant().minus(staleAfter))) {
                        return close(attempt, "its provider could not tell its status for " + staleAfter + ": " + failure);
                    }
                    LOG.log(System.Logger.Level.WARNING, "reconciling call {0} failed, will retry: {1}",
                            attempt.callId(), failure.toString());
                    return Uni.createFrom().voidItem();
                })
                .onFailure().recoverWithItem(failure -> {
                    LOG.log(System.Logger.Level.WARNING, "closing call {0} failed: {1}", attempt.callId(),
                            failure.toString());
                    return null;
                });
    }

    private Uni<Void> close(DispatchLedger.ExpiredAttempt attempt, String why) {
        LOG.log(System.Logger.Level.INFO, "call {0} closed as error: {1}", attempt.callId(), why);
        return apply(attempt, CallStatus.ERROR);
    }

    private Uni<Void> apply(DispatchLedger.ExpiredAttempt attempt, CallStatus status) {
        return reports.process(new CallReport(attempt.provider(), attempt.runId(), attempt.providerCallId(), status, null,
                "reconcile:" + attempt.callId() + ":" + status.wireName()), SignatureCheck.VERIFIED_BY_ADAPTER)
                .replaceWithVoid();
    }
}
