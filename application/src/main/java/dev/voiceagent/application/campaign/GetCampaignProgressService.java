package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.domain.campaign.CampaignProgress;
import dev.voiceagent.domain.campaign.CircuitBreakerPolicy;
import dev.voiceagent.domain.campaign.DispatchStatus;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Progress counted from the contacts and the call ledger themselves (not from counters that could
 * drift): the reference's figures (the import state from the campaign's log, the concurrency cap in
 * force: max_concurrency, else the organization's limit), plus contacts by state and outcome, live
 * calls, the calling window and the breaker's current window as the dispatcher evaluates it.
 */
public class GetCampaignProgressService implements GetCampaignProgressUseCase {

    private final CampaignRepository campaigns;
    private final ContactRepository contacts;
    private final CallRepository calls;
    private final DispatchLedger ledger;
    private final Clock clock;
    private final int defaultLimit;
    private final Duration staleAfter;

    public GetCampaignProgressService(CampaignRepository campaigns, ContactRepository contacts, CallRepository calls,
            DispatchLedger ledger, Clock clock, int defaultLimit, Duration staleAfter) {
        this.campaigns = campaigns;
        this.contacts = contacts;
        this.calls = calls;
        this.ledger = ledger;
        this.clock = clock;
        this.defaultLimit = Math.max(1, defaultLimit);
        this.staleAfter = staleAfter;
    }

    @Override
    public Uni<Progress> progress(Principal principal, long campaignId) {
        long org = principal.organizationId();
        Instant now = clock.instant();
        return Campaigns.find(campaigns, org, campaignId).chain(campaign -> {
            Uni<Integer> cap = campaign.maxConcurrency() != null ? Uni.createFrom().item(campaign.maxConcurrency())
                    : calls.organizationLimit(org).map(limit -> limit.orElse(defaultLimit));
            return ledger.activity(org, campaignId, now.minus(staleAfter)).chain(activity -> ledger.outcomesSince(
                            campaignId, CircuitBreakerPolicy.windowStart(campaign.effectiveCircuitBreaker(),
                                    activity.breakerWindowFrom(), now))
                    .chain(counts -> Uni.combine().all()
                            .unis(contacts.breakdown(org, campaignId), cap)
                            .with((breakdown, limit) -> {
                                var tally = breakdown.tally();
                                var byState = breakdown.byState();
                                DispatchStatus status = DispatchStatus.of(campaign, byState.getOrDefault("pending", 0L),
                                        byState.getOrDefault("waiting_retry", 0L), byState.getOrDefault("dialing", 0L),
                                        breakdown.finishedByOutcome(), activity.activeCalls(), counts.calls(),
                                        counts.failures(), now, breakdown.heldForCallingHours(),
                                        breakdown.nextCallingHoursAt());
                                return new Progress(CampaignProgress.of(campaign, tally.processed(), tally.failed(),
                                        limit), status);
                            })));
        });
    }
}
