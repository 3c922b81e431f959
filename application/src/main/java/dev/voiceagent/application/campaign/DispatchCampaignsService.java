package dev.voiceagent.application.campaign;

import dev.voiceagent.application.call.CallChanges;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallRecord;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.call.CampaignAttempt;
import dev.voiceagent.application.call.ContactEffect;
import dev.voiceagent.application.call.OutboundCall;
import dev.voiceagent.application.campaign.PreparedCampaigns.Prepared;
import dev.voiceagent.application.dispatch.DispatchMetrics;
import dev.voiceagent.application.dispatch.SlotListener;
import dev.voiceagent.application.telephony.NumberTimeZones;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.calling.DoNotCallEntry;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignCallContext;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.CircuitBreakerPolicy;
import dev.voiceagent.domain.campaign.ContactScreening;
import dev.voiceagent.domain.campaign.DispatchCapacity;
import dev.voiceagent.domain.campaign.DueContact;
import dev.voiceagent.domain.campaign.LogLevel;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.CallerSelection;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.voice.VoicemailDetection;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;

/**
 * The campaign dispatcher. Per organization, in one transaction under the organization's call lock: completes
 * campaigns with nothing left, pauses those that cannot dial, trips breakers from the ledger's outcome counts, then
 * claims due contacts (FOR UPDATE SKIP LOCKED) up to the free slots and writes what {@link ContactScreening} decides
 * for each (dial: a run and an attempt; defer; skip with a log entry and a contact.skipped event). Only after that
 * commits are the providers called, so no contact is dialed twice for one attempt; a refused dial is settled as an
 * error with a log entry. A freed slot dispatches its organization at once ({@link SlotNudges}); what a campaign
 * dials with is read before the transaction and kept briefly ({@link PreparedCampaigns}).
 */
public class DispatchCampaignsService implements DispatchCampaignsUseCase {

    private static final System.Logger LOG = System.getLogger(DispatchCampaignsService.class.getName());
    /** Extra due rows read past the free slots, so contacts waiting for their window do not block the others. */
    static final int SCAN_AHEAD = 50;
    static final String DIAL_FAILED = "call_initiation_failed";
    static final String OUTSIDE_HOURS = "skipped_outside_calling_hours";
    static final String CREDITS_EXHAUSTED = "The organization's credit balance is exhausted";

    private final DispatchLedger ledger;
    private final CallRepository calls;
    private final CallChanges changes;
    private final Map<Provider, CallGateway> gateways = new EnumMap<>(Provider.class);
    private final PreparedCampaigns prepared;
    private final SlotNudges nudges;
    private final Clock clock;
    private final RandomGenerator random;
    private final DispatchSettings settings;
    private final DispatchMetrics metrics;
    private final CreditGate credits;
    private final NumberTimeZones numberZones;
    private volatile boolean claiming = true;

    public DispatchCampaignsService(DispatchLedger ledger, WorkflowRepository workflows,
            TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers, CallRepository calls,
            CallChanges changes, List<CallGateway> gateways, Clock clock, RandomGenerator random,
            DispatchSettings settings, DispatchMetrics metrics, CreditGate credits, NumberTimeZones numberZones) {
        this.ledger = ledger;
        this.calls = calls;
        this.changes = changes;
        gateways.forEach(g -> this.gateways.put(g.provider(), g));
        this.prepared = new PreparedCampaigns(workflows, configurations, numbers, this.gateways, clock);
        this.nudges = new SlotNudges(this::dispatchOrganization);
        this.clock = clock;
        this.random = random;
        this.settings = settings;
        this.metrics = metrics;
        this.credits = credits;
        this.numberZones = numberZones;
    }

    @Override
    public void stopClaiming() {
        claiming = false;
    }

    @Override
    public Uni<Integer> tick() {
        if (!claiming) {
            return Uni.createFrom().item(0);
        }
        long started = System.nanoTime();
        return ledger.organizationsWithRunningCampaigns().chain(orgs -> orgs.isEmpty() ? Uni.createFrom().item(0)
                : Multi.createFrom().iterable(orgs)
                        .onItem().transformToUni(org -> dispatchOrganization(org).onFailure().recoverWithItem(failure -> {
                            LOG.log(System.Logger.Level.WARNING, "dispatch for organization {0} failed: {1}", org,
                                    failure.toString());
                            return 0;
                        })).merge(4)
                        .collect().with(Collectors.summingInt(Integer::intValue)))
                .invoke(() -> metrics.tick(Duration.ofNanos(System.nanoTime() - started)));
    }

    /** A slot freed: dispatch the organization now instead of at the next tick (coalesced per organization). */
    @Override
    public void slotFreed(long organizationId) {
        if (claiming) { // draining: the other replicas fill the slot
            nudges.nudge(organizationId);
        }
    }

    private record Placed(Prepared prepared, CallRecord call) {
    }

    private Uni<Integer> dispatchOrganization(long org) {
        return ledger.runningCampaigns(org)
                .chain(running -> running.isEmpty() ? Uni.createFrom().item(List.<Prepared>of())
                        : credits.exhausted(org).chain(exhausted -> exhausted
                                // nothing is dialed: each campaign pauses with the reason in its log
                                ? Uni.createFrom().item(running.stream()
                                        .map(r -> Prepared.cannotDial(r, CREDITS_EXHAUSTED)).toList())
                                : Uni.join().all(running.stream().map(prepared::prepare).toList()).andFailFast()))
                .chain(ready -> ready.isEmpty() ? Uni.createFrom().item(List.<Placed>of())
                        : calls.organizationLimit(org).map(limit -> limit.orElse(settings.defaultOrgLimit()))
                                .chain(limit -> ledger.underOrganizationLock(org,
                                        session -> plan(session, org, limit, ready))))
                .chain(placed -> placed.isEmpty() ? Uni.createFrom().item(0)
                        : Uni.join().all(placed.stream().map(this::originate).toList()).andFailFast()
                                .replaceWith(placed.size()));
    }

    /** Runs in the organization's transaction; campaigns one after the other, sharing the organization's slots. */
    private Uni<List<Placed>> plan(DispatchLedger.Session session, long org, int limit, List<Prepared> ready) {
        Instant now = clock.instant();
        Instant staleBefore = now.minus(settings.staleAfter());
        List<Long> ids = ready.stream().map(p -> p.campaign().id()).toList();
        return session.lockRunning(org, ids, staleBefore).chain(loads -> session.activeCalls(org, staleBefore)
                .chain(active -> {
                    AtomicLong orgActive = new AtomicLong(active);
                    return Multi.createFrom().iterable(ready)
                            .onItem().transformToUniAndConcatenate(p -> {
                                DispatchLedger.CampaignLoad load = loads.get(p.campaign().id());
                                return load == null ? Uni.createFrom().item(List.<Placed>of())
                                        : planCampaign(session, p, load, limit, orgActive, now);
                            })
                            .collect().in(ArrayList<Placed>::new, ArrayList::addAll)
                            .map(list -> (List<Placed>) list);
                }));
    }

    private Uni<List<Placed>> planCampaign(DispatchLedger.Session session, Prepared p, DispatchLedger.CampaignLoad load,
            int limit, AtomicLong orgActive, Instant now) {
        Campaign campaign = p.campaign();
        List<Placed> none = List.of();
        if (!load.openContacts() && load.activeCalls() == 0) {
            return session.transition(campaign, campaign.complete(now)).replaceWith(none);
        }
        if (p.problem() != null) {
            return session.transition(campaign, campaign.pause(now, p.problem() + "; campaign paused")).replaceWith(none);
        }
        return tripped(session, p, now).chain(trip -> {
            int free = DispatchCapacity.freeSlots(campaign.maxConcurrency(), load.activeCalls(), limit, orgActive.get());
            if (trip || free == 0) {
                return Uni.createFrom().item(none);
            }
            return session.claimDue(campaign.id(), now, free + SCAN_AHEAD)
                    .map(due -> ContactScreening.screen(due, campaign, p.running().callingHours() != null
                            ? p.running().callingHours() : settings.defaultHours(), free, now, numberZones::zonesOf))
                    .chain(screened -> write(session, p, screened, now))
                    .map(recorded -> {
                        orgActive.addAndGet(recorded.size());
                        metrics.dialsStarted(recorded.size());
                        return recorded.stream().map(call -> new Placed(p, call)).toList();
                    });
        });
    }

    /** Trips the campaign's breaker when the ledger's outcomes in its window reach the threshold: true if tripped. */
    private Uni<Boolean> tripped(DispatchLedger.Session session, Prepared p, Instant now) {
        Campaign campaign = p.campaign();
        CircuitBreakerConfig breaker = campaign.effectiveCircuitBreaker();
        if (!breaker.enabled()) {
            return Uni.createFrom().item(false);
        }
        return session.outcomesSince(campaign.id(),
                        CircuitBreakerPolicy.windowStart(breaker, p.running().breakerWindowFrom(), now))
                .chain(counts -> CircuitBreakerPolicy.evaluate(breaker, counts.calls(), counts.failures())
                        .map(trip -> session.transition(campaign, campaign.tripBreaker(trip, counts.recentFailures(),
                                        now))
                                .invoke(applied -> {
                                    if (applied) {
                                        metrics.breakerTripped();
                                    }
                                }).replaceWith(true))
                        .orElse(Uni.createFrom().item(false)));
    }

    /** The screening's plan, in the organization's transaction: skips, deferrals, then the attempts it dials. */
    private Uni<List<CallRecord>> write(DispatchLedger.Session session, Prepared p, ContactScreening.Plan plan,
            Instant now) {
        Campaign campaign = p.campaign();
        Uni<Void> written = Uni.createFrom().voidItem();
        if (!plan.skipDoNotCall().isEmpty()) {
            written = written.chain(() -> session.skip(campaign.organizationId(), campaign.id(), plan.skipDoNotCall(),
                    DoNotCallEntry.SKIPPED, skipEvents(campaign.id(), plan.skipDoNotCall())));
        }
        if (!plan.skipNeverOpen().isEmpty()) {
            written = written.chain(() -> session.skip(campaign.organizationId(), campaign.id(), plan.skipNeverOpen(),
                    OUTSIDE_HOURS, skipEvents(campaign.id(), plan.skipNeverOpen())));
        }
        if (!plan.defer().isEmpty()) {
            written = written.chain(() -> session.defer(plan.defer(), plan.callingHours()));
        }
        CampaignLogEntry hold = holdChange(p.running().heldByCallingHours(), plan, now);
        if (hold != null) {
            written = written.chain(() -> session.heldByCallingHours(campaign.organizationId(), campaign.id(),
                    HELD.equals(hold.event()), hold));
        }
        List<CallRecord> attempts = plan.dial().stream().map(contact -> attempt(p, contact, now)).toList();
        return written.chain(() -> attempts.isEmpty() ? Uni.createFrom().item(List.<CallRecord>of())
                : session.record(attempts, now.plus(settings.lease())));
    }

    static final String HELD = "dispatch_held_calling_hours";
    static final String RESUMED = "dispatch_resumed_calling_hours";

    /**
     * The campaign's log says when legal calling hours hold its dispatch back and when it goes on, once each (not per
     * contact, not per tick): held when the contacts due now all wait for their hours and none is dialed, resumed
     * when a held campaign dials again.
     */
    static CampaignLogEntry holdChange(boolean held, ContactScreening.Plan plan, Instant now) {
        if (!held && plan.dial().isEmpty() && !plan.callingHours().isEmpty()) {
            Instant opens = plan.callingHours().values().stream().min(Instant::compareTo).orElseThrow();
            return new CampaignLogEntry(now, LogLevel.INFO, HELD,
                    "Dispatch held back: " + plan.callingHours().size() + " contact(s) due now are outside their"
                            + " legal calling hours; the next opens at " + opens,
                    Map.of("contacts", plan.callingHours().size(), "next_opening", opens.toString()));
        }
        if (held && !plan.dial().isEmpty()) {
            return new CampaignLogEntry(now, LogLevel.INFO, RESUMED,
                    "Dispatch resumed: calling hours are open for " + plan.dial().size() + " contact(s)",
                    Map.of("contacts", plan.dial().size()));
        }
        return null;
    }

    /** contact.skipped for each skipped contact, with its log entry's details (why, which number). */
    private static List<WebhookEvent> skipEvents(long campaignId, Map<Long, CampaignLogEntry> skipped) {
        return skipped.values().stream().<WebhookEvent>map(entry -> new WebhookEvent.ContactSkipped(entry.ts(),
                campaignId, entry.details())).toList();
    }

    /** The run and attempt for a contact's next dial, bound to the published version. */
    private CallRecord attempt(Prepared p, DueContact contact, Instant now) {
        Campaign campaign = p.campaign();
        var configuration = p.view().configuration();
        Provider provider = configuration.provider();
        String from = CallerSelection.choose(p.callers(), null, random).map(CallerSelection.Number::address).orElse(null);
        var version = p.workflow().published();
        CampaignCallContext call = CampaignCallContext.of(campaign, contact, version.templateContextVariables(),
                provider.wireName(), configuration.id(), from);
        WorkflowRun run = WorkflowRun.initialized(campaign.organizationId(), campaign.workflowId(), version.id(),
                call.runName(), provider.wireName(), "outbound", call.initialContext(), now)
                .withGathered(call.gatheredContext()).withCampaign(campaign.id());
        return new CallRecord(CallAttempt.dialing(campaign.organizationId(), 0, now), run, provider, configuration.id(),
                from, contact.phoneNumber(), new CampaignAttempt(campaign.id(), contact.id(), call.attempt()));
    }

    /** After the attempt committed: place it. A refusal settles the attempt as an error, logged with the contact. */
    private Uni<Void> originate(Placed placed) {
        CallRecord call = placed.call();
        CallGateway gateway = gateways.get(call.provider());
        return Uni.createFrom().deferred(() -> gateway.originate(new OutboundCall(
                        placed.prepared().view().configuration().configuration(), call.run().id(), call.fromNumber(),
                        call.toNumber(), call.run().organizationId(), call.run().workflowId(),
                        VoicemailDetection.of(placed.prepared().workflow().published()
                                .configurations()).enabled())))
                .chain(providerCallId -> calls.attachProviderCallId(call.attempt().id(), providerCallId))
                .onFailure().recoverWithUni(failure -> dialFailed(call, failure)
                        .invoke(() -> slotFreed(call.attempt().organizationId())))
                .onFailure().recoverWithItem(failure -> {
                    LOG.log(System.Logger.Level.WARNING, "settling the refused dial of run {0} failed: {1}",
                            call.run().id(), failure.toString());
                    return null; // the attempt's lease expires and reconciliation closes it
                });
    }

    private Uni<Void> dialFailed(CallRecord call, Throwable failure) {
        metrics.dialFailed();
        Instant now = clock.instant();
        CallAttempt after = call.attempt().report(CallStatus.ERROR, now, 0).attempt();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("workflow_run_id", call.run().id());
        details.put("contact_id", call.campaign().contactId());
        details.put("phone_number", call.toNumber());
        details.put("attempt", call.campaign().attemptNumber());
        details.put("error", String.valueOf(failure.getMessage()));
        CampaignLogEntry entry = new CampaignLogEntry(now, LogLevel.ERROR, "dial_failed",
                "Dialing " + call.toNumber() + " failed: " + failure.getMessage(), details);
        ContactEffect effect = new ContactEffect(call.campaign(), null, false, DIAL_FAILED, entry);
        return changes.commit(call, after, effect).replaceWithVoid();
    }
}
