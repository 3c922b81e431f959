package dev.voiceagent.application.campaign;

import dev.voiceagent.application.dispatch.DispatchMetrics;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallRecord;
import dev.voiceagent.application.call.CallChanges;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.call.CampaignAttempt;
import dev.voiceagent.application.call.ContactEffect;
import dev.voiceagent.application.call.OutboundCall;
import dev.voiceagent.application.dispatch.SlotListener;
import dev.voiceagent.application.telephony.OutboundConfigurations;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.PhoneNumberView;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.calling.CallingHours;
import dev.voiceagent.domain.calling.DoNotCallEntry;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.Contact;
import dev.voiceagent.domain.campaign.CircuitBreakerPolicy;
import dev.voiceagent.domain.campaign.DispatchCapacity;
import dev.voiceagent.domain.campaign.LogLevel;
import dev.voiceagent.domain.campaign.ScheduleWindow;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.CallerSelection;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

/**
 * The campaign dispatcher. Per organization, in one transaction under the organization's call lock:
 * completes campaigns with nothing left, trips breakers from the ledger's outcome counts, then claims
 * due contacts (FOR UPDATE SKIP LOCKED) up to the free slots, puts off those outside their calling
 * window, and records a run and an attempt per contact. Only after that commits are the providers
 * called, so no contact is dialed twice for one attempt; a refused dial is settled as an error with a
 * log entry in the same transaction.
 */
public class DispatchCampaignsService implements DispatchCampaignsUseCase {

    private static final System.Logger LOG = System.getLogger(DispatchCampaignsService.class.getName());
    /** Extra due rows read past the free slots, so contacts waiting for their window do not block the others. */
    static final int SCAN_AHEAD = 50;
    /** A contact outside its window is looked at again at its next opening, or after this at the latest. */
    static final Duration MAX_DEFER = Duration.ofMinutes(5);
    static final String DIAL_FAILED = "call_initiation_failed";
    static final Duration PREPARED_TTL = Duration.ofSeconds(2);

    private final DispatchLedger ledger;
    private final WorkflowRepository workflows;
    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberRepository numbers;
    private final CallRepository calls;
    private final CallChanges changes;
    private final Map<Provider, CallGateway> gateways = new HashMap<>();
    private final java.util.concurrent.ConcurrentHashMap<Long, CachedPrepared> prepared =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final Clock clock;
    private final RandomGenerator random;
    private final int defaultLimit;
    private final Duration staleAfter;
    private final Duration lease;
    private final DispatchMetrics metrics;
    private final dev.voiceagent.application.usage.CreditGate credits;
    private final dev.voiceagent.application.telephony.NumberTimeZones numberZones;
    private final CallingHours defaultHours;
    static final String OUTSIDE_HOURS = "skipped_outside_calling_hours";
    static final String CREDITS_EXHAUSTED = "The organization's credit balance is exhausted";

    public DispatchCampaignsService(DispatchLedger ledger, WorkflowRepository workflows,
            TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers, CallRepository calls,
            CallChanges changes,
            List<CallGateway> gateways, Clock clock, RandomGenerator random, int defaultLimit, Duration staleAfter,
            Duration lease, DispatchMetrics metrics, dev.voiceagent.application.usage.CreditGate credits,
            dev.voiceagent.application.telephony.NumberTimeZones numberZones, CallingHours defaultHours) {
        this.credits = credits;
        this.numberZones = numberZones;
        this.defaultHours = defaultHours;
        this.metrics = metrics;
        this.ledger = ledger;
        this.workflows = workflows;
        this.configurations = configurations;
        this.numbers = numbers;
        this.calls = calls;
        this.changes = changes;
        gateways.forEach(g -> this.gateways.put(g.provider(), g));
        this.clock = clock;
        this.random = random;
        this.defaultLimit = Math.max(1, defaultLimit);
        this.staleAfter = staleAfter;
        this.lease = lease;
    }

    private volatile boolean claiming = true;

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
                        .collect().with(java.util.stream.Collectors.summingInt(Integer::intValue)))
                .invoke(() -> metrics.tick(Duration.ofNanos(System.nanoTime() - started)));
    }

    /** Organizations with a slot-driven dispatch under way in this replica; TRUE when another was asked for meanwhile. */
    private final java.util.concurrent.ConcurrentHashMap<Long, Boolean> nudged = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * A slot freed: dispatch the organization now instead of at the next tick. Requests arriving while
     * one runs are folded into one more run after it, so a burst of call ends costs two transactions.
     */
    @Override
    public void slotFreed(long organizationId) {
        if (!claiming) {
            return; // draining: the other replicas fill the slot
        }
        while (true) {
            if (nudged.putIfAbsent(organizationId, Boolean.FALSE) == null) {
                runNudged(organizationId);
                return;
            }
            if (nudged.computeIfPresent(organizationId, (org, again) -> Boolean.TRUE) != null) {
                return;
            }
        }
    }

    private void runNudged(long organizationId) {
        dispatchOrganization(organizationId).subscribe().with(placed -> afterNudge(organizationId), failure -> {
            LOG.log(System.Logger.Level.WARNING, "dispatch for organization {0} failed: {1}", organizationId,
                    failure.toString());
            afterNudge(organizationId);
        });
    }

    private void afterNudge(long organizationId) {
        if (nudged.remove(organizationId, Boolean.FALSE)) {
            return;
        }
        nudged.put(organizationId, Boolean.FALSE); // asked again while running: once more covers every request
        runNudged(organizationId);
    }

    /** What a campaign needs to dial, read before the transaction; {@code problem} says why it cannot. */
    private record Prepared(DispatchLedger.RunningCampaign running, Workflow workflow, TelephonyConfigurationView view,
            List<CallerSelection.Number> callers, String problem) {

        Campaign campaign() {
            return running.campaign();
        }
    }

    private record Placed(Prepared prepared, CallRecord call) {
    }

    private Uni<Integer> dispatchOrganization(long org) {
        return ledger.runningCampaigns(org)
                .chain(running -> running.isEmpty() ? Uni.createFrom().item(List.<Prepared>of())
                        : credits.exhausted(org).chain(exhausted -> exhausted
                                // nothing is dialed: each campaign pauses with the reason in its log
                                ? Uni.createFrom().item(running.stream().map(r -> new Prepared(r, null, null,
                                        List.<CallerSelection.Number>of(), CREDITS_EXHAUSTED)).toList())
                                : Uni.join().all(running.stream().map(this::prepare).toList()).andFailFast()))
                .chain(prepared -> prepared.isEmpty() ? Uni.createFrom().item(List.<Placed>of())
                        : calls.organizationLimit(org).map(limit -> limit.orElse(defaultLimit))
                                .chain(limit -> ledger.underOrganizationLock(org,
                                        session -> plan(session, org, limit, prepared))))
                .chain(placed -> placed.isEmpty() ? Uni.createFrom().item(0)
                        : Uni.join().all(placed.stream().map(this::originate).toList()).andFailFast()
                                .replaceWith(placed.size()));
    }

    /**
     * What a campaign dials with (workflow, telephony configuration, caller numbers) changes rarely
     * and is read for every dispatch: kept for {@link #PREPARED_TTL}, so a change is seen within that.
     */
    private Uni<Prepared> prepare(DispatchLedger.RunningCampaign running) {
        Instant now = clock.instant();
        long id = running.campaign().id();
        CachedPrepared hit = prepared.get(id);
        if (hit != null && hit.until().isAfter(now)) {
            Prepared p = hit.prepared();
            return Uni.createFrom().item(new Prepared(running, p.workflow(), p.view(), p.callers(), p.problem()));
        }
        if (prepared.size() > 1_000) {
            prepared.values().removeIf(cached -> !cached.until().isAfter(now));
        }
        return load(running).invoke(p -> prepared.put(id, new CachedPrepared(p, now.plus(PREPARED_TTL))));
    }

    private record CachedPrepared(Prepared prepared, Instant until) {
    }

    private Uni<Prepared> load(DispatchLedger.RunningCampaign running) {
        Campaign c = running.campaign();
        long org = c.organizationId();
        return workflows.find(org, c.workflowId()).chain(workflow -> {
            if (workflow.isEmpty()) {
                return Uni.createFrom().item(new Prepared(running, null, null, List.of(),
                        "The campaign's workflow no longer exists"));
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

    /** Runs in the organization's transaction; campaigns one after the other, sharing the organization's slots. */
    private Uni<List<Placed>> plan(DispatchLedger.Session session, long org, int limit, List<Prepared> prepared) {
        Instant now = clock.instant();
        Instant staleBefore = now.minus(staleAfter);
        List<Long> ids = prepared.stream().map(p -> p.campaign().id()).toList();
        return session.lockRunning(org, ids, staleBefore).chain(loads -> session.activeCalls(org, staleBefore)
                .chain(active -> {
                    AtomicLong orgActive = new AtomicLong(active);
                    return Multi.createFrom().iterable(prepared)
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
        CircuitBreakerConfig breaker = campaign.effectiveCircuitBreaker();
        Uni<Boolean> tripped = !breaker.enabled() ? Uni.createFrom().item(false)
                : session.outcomesSince(campaign.id(),
                                CircuitBreakerPolicy.windowStart(breaker, p.running().breakerWindowFrom(), now))
                        .chain(counts -> CircuitBreakerPolicy.evaluate(breaker, counts.calls(), counts.failures())
                                .map(trip -> session.transition(campaign,
                                        campaign.tripBreaker(trip, counts.recentFailures(), now))
                                        .invoke(applied -> {
                                            if (applied) {
                                                metrics.breakerTripped();
                                            }
                                        }).replaceWith(true))
                                .orElse(Uni.createFrom().item(false)));
        return tripped.chain(trip -> {
            int free = DispatchCapacity.freeSlots(campaign.maxConcurrency(), load.activeCalls(), limit, orgActive.get());
            if (trip || free == 0) {
                return Uni.createFrom().item(none);
            }
            return session.claimDue(campaign.id(), now, free + SCAN_AHEAD).chain(due -> {
                List<CallRecord> attempts = new ArrayList<>();
                Map<Long, Instant> deferred = new LinkedHashMap<>();
                Map<Long, CampaignLogEntry> skipped = new LinkedHashMap<>();
                Map<Long, CampaignLogEntry> outside = new LinkedHashMap<>();
                CallingHours hours = p.running().callingHours() != null ? p.running().callingHours() : defaultHours;
                ZoneId fallback = campaign.scheduleConfig() != null && campaign.scheduleConfig().timezone() != null
                        ? campaign.scheduleConfig().timezone() : java.time.ZoneOffset.UTC;
                for (DispatchLedger.DueContact contact : due) {
                    ZoneId zone = zone(contact.timezone());
                    boolean ownZone = contact.timezone() != null && !contact.timezone().isBlank();
                    List<ZoneId> local = contact.doNotCall() ? List.of() : CallingHours.zonesOf(contact.timezone(),
                            ownZone ? List.of() : numberZones.zonesOf(contact.phoneNumber()), fallback);
                    Optional<Instant> legal = contact.doNotCall() ? Optional.of(now) : hours.nextOpening(now, local);
                    if (contact.doNotCall()) {
                        skipped.put(contact.id(), doNotCall(contact, now));
                    } else if (legal.isEmpty()) {
                        outside.put(contact.id(), outsideHours(contact, hours, local, now));
                    } else if (legal.get().isAfter(now)) {
                        Instant latest = now.plus(MAX_DEFER);
                        deferred.put(contact.id(), legal.get().isBefore(latest) ? legal.get() : latest);
                    } else if (!ScheduleWindow.isOpen(campaign.scheduleConfig(), zone, now)) {
                        Instant latest = now.plus(MAX_DEFER);
                        Instant opens = ScheduleWindow.nextOpening(campaign.scheduleConfig(), zone, now).orElse(latest);
                        deferred.put(contact.id(), opens.isBefore(latest) ? opens : latest);
                    } else if (attempts.size() < free) {
                        attempts.add(attempt(p, contact, now));
                    }
                }
                Uni<Void> skipDnc = skipped.isEmpty() ? Uni.createFrom().voidItem()
                        : session.skip(campaign.organizationId(), campaign.id(), skipped, DoNotCallEntry.SKIPPED,
                                skipEvents(campaign.id(), skipped));
                Uni<Void> skip = outside.isEmpty() ? skipDnc : skipDnc.chain(() -> session.skip(
                        campaign.organizationId(), campaign.id(), outside, OUTSIDE_HOURS,
                        skipEvents(campaign.id(), outside)));
                Uni<Void> defer = deferred.isEmpty() ? skip : skip.chain(() -> session.defer(deferred));
                return defer.chain(() -> attempts.isEmpty() ? Uni.createFrom().item(List.<CallRecord>of())
                                : session.record(attempts, now.plus(lease)))
                        .map(recorded -> {
                            orgActive.addAndGet(recorded.size());
                            metrics.dialsStarted(recorded.size());
                            return recorded.stream().map(call -> new Placed(p, call)).toList();
                        });
            });
        });
    }

    /** A contact whose number is on the do-not-call list at the claim: never dialed, final, logged. */
    private static CampaignLogEntry doNotCall(DispatchLedger.DueContact contact, Instant now) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("contact_id", contact.id());
        details.put("row_number", contact.rowNumber());
        details.put("phone_number", contact.phoneNumber());
        details.put("reason", "do_not_call");
        return new CampaignLogEntry(now, LogLevel.WARNING, "contact_skipped", "Skipped " + contact.phoneNumber()
                + " (row " + contact.rowNumber() + "): on the organization's do-not-call list", details);
    }

    /** A contact whose zones never share an open hour of the calling hours: it can never be called lawfully. */
    private static CampaignLogEntry outsideHours(DispatchLedger.DueContact contact, CallingHours hours,
            List<ZoneId> zones, Instant now) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("contact_id", contact.id());
        details.put("row_number", contact.rowNumber());
        details.put("phone_number", contact.phoneNumber());
        details.put("reason", "outside_calling_hours");
        details.put("time_zones", zones.stream().map(ZoneId::getId).toList());
        details.put("calling_hours", hours.startText() + "-" + hours.endText());
        return new CampaignLogEntry(now, LogLevel.WARNING, "contact_skipped", "Skipped " + contact.phoneNumber()
                + " (row " + contact.rowNumber() + "): its time zones " + details.get("time_zones")
                + " never share an hour of the calling hours " + details.get("calling_hours"), details);
    }

    private static ZoneId zone(String timezone) {
        if (timezone == null || timezone.isBlank()) {
            return null;
        }
        try {
            return ZoneId.of(timezone);
        } catch (DateTimeException e) {
            return null; // validated at create; an unknown zone falls back to the campaign's
        }
    }

    /** The run and attempt for a contact's next dial, bound to the published version. */
    private CallRecord attempt(Prepared p, DispatchLedger.DueContact contact, Instant now) {
        Campaign campaign = p.campaign();
        var configuration = p.view().configuration();
        Provider provider = configuration.provider();
        int number = contact.attempts() + 1;
        String from = CallerSelection.choose(p.callers(), null, random).map(CallerSelection.Number::address).orElse(null);
        var version = p.workflow().published();
        Map<String, Object> context = new HashMap<>();
        if (version.templateContextVariables() != null) {
            context.putAll(version.templateContextVariables());
        }
        context.putAll(contact.context());
        context.put("campaign_id", campaign.id());
        context.put("provider", provider.wireName());
        context.put("source_uuid", Contact.sourceUuid(campaign.sourceId(), contact.rowNumber()));
        context.put("called_number", contact.phoneNumber());
        if (from != null) {
            context.put("caller_number", from);
        }
        context.put("direction", "outbound");
        context.put("telephony_configuration_id", configuration.id());
        Map<String, Object> gathered = null;
        if (number > 1) {
            String reason = contact.lastOutcome() == null ? "unknown" : contact.lastOutcome().replace('-', '_');
            context.put("is_retry", true);
            context.put("retry_attempt", number - 1);
            context.put("retry_reason", reason);
            gathered = Map.of("call_tags", List.of("retry", "retry_reason_" + reason));
        }
        String name = "WR-CAMPAIGN-%d-%d-%d".formatted(campaign.id(), contact.rowNumber(), number);
        WorkflowRun run = new WorkflowRun(null, campaign.organizationId(), campaign.workflowId(), version.id(), name,
                provider.wireName(), "outbound", "initialized", false, null, null, null, null, context, gathered, null,
                null, campaign.id(), now);
        return new CallRecord(CallAttempt.dialing(campaign.organizationId(), 0, now), run, provider, configuration.id(),
                from, contact.phoneNumber(), new CampaignAttempt(campaign.id(), contact.id(), number));
    }

    /** After the attempt committed: place it. A refusal settles the attempt as an error, logged with the contact. */
    private Uni<Void> originate(Placed placed) {
        CallRecord call = placed.call();
        CallGateway gateway = gateways.get(call.provider());
        return Uni.createFrom().deferred(() -> gateway.originate(new OutboundCall(
                        placed.prepared().view().configuration().configuration(), call.run().id(), call.fromNumber(),
                        call.toNumber())))
                .chain(providerCallId -> calls.attachProviderCallId(call.attempt().id(), providerCallId))
                .onFailure().recoverWithUni(failure -> dialFailed(call, failure)
                        .invoke(() -> slotFreed(call.attempt().organizationId())))
                .onFailure().recoverWithItem(failure -> {
                    LOG.log(System.Logger.Level.WARNING, "settling the refused dial of run {0} failed: {1}",
                            call.run().id(), failure.toString());
                    return null; // the attempt's lease expires and reconciliation closes it
                });
    }

    /** contact.skipped for each skipped contact, with its log entry's details (why, which number). */
    private static List<WebhookEvent> skipEvents(long campaignId, Map<Long, CampaignLogEntry> skipped) {
        return skipped.values().stream().<WebhookEvent>map(entry -> new WebhookEvent.ContactSkipped(entry.ts(),
                campaignId, entry.details())).toList();
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
