package dev.voiceagent.application.fakes;

import dev.voiceagent.application.call.CallRecord;
import dev.voiceagent.application.campaign.DispatchLedger;
import dev.voiceagent.domain.calling.CallingHours;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.CampaignState;
import dev.voiceagent.domain.campaign.CampaignTransition;
import dev.voiceagent.domain.campaign.DueContact;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The dispatcher's ledger in memory, held to the Postgres ledger's behaviour by the contract both run
 * (AbstractDispatchLedgerTest): one organization's dispatches at a time; due contacts (pending, or waiting for a retry
 * whose time came) in due order with the do-not-call list's verdict; a skip or a record moves only a contact still to
 * be dialed (a record only at its next attempt number, and never twice for one attempt); live calls counted from the
 * calls recorded and not ended, stale ones left out; a transition applied only from the state it was read in, the
 * breaker's window restarting on resume; leases on attempts and imports. Unlike PostgreSQL it cannot undo a failed
 * session's earlier writes. It keeps what was written so a test can assert it.
 */
public final class InMemoryDispatchLedger implements DispatchLedger {

    /** A contact row: its state (pending, waiting_retry, dialing, done), when it is due, and how often it was dialed. */
    public static final class Row {
        public final long campaignId;
        public final long organizationId;
        public final DueContact contact;
        public String state = "pending";
        public Instant dueAt;
        public int attempts;
        public String outcome;

        Row(long campaignId, long organizationId, DueContact contact, Instant dueAt) {
            this.campaignId = campaignId;
            this.organizationId = organizationId;
            this.contact = contact;
            this.dueAt = dueAt;
        }
    }

    /** A call of the ledger: a campaign contact's attempt, or a single call (no campaign). */
    public static final class Call {
        public final long id;
        public final long organizationId;
        public final long runId;
        public final Long campaignId;
        public final Long contactId;
        public final Integer attemptNumber;
        public final Provider provider;
        public final Long configurationId;
        public final Instant startedAt;
        public CallStatus status = CallStatus.INITIATED;
        public Instant endedAt;
        public String failureReason;
        public Instant leaseUntil;

        Call(long id, long organizationId, long runId, Long campaignId, Long contactId, Integer attemptNumber,
                Provider provider, Long configurationId, Instant startedAt, Instant leaseUntil) {
            this.id = id;
            this.organizationId = organizationId;
            this.runId = runId;
            this.campaignId = campaignId;
            this.contactId = contactId;
            this.attemptNumber = attemptNumber;
            this.provider = provider;
            this.configurationId = configurationId;
            this.startedAt = startedAt;
            this.leaseUntil = leaseUntil;
        }

        boolean live(Instant staleBefore) {
            return !status.isFinal() && startedAt.isAfter(staleBefore);
        }
    }

    private static final Set<String> DUE_STATES = Set.of("pending", "waiting_retry");

    public final Map<Long, Campaign> campaigns = new LinkedHashMap<>();
    /** Campaigns' own calling hours. */
    public final Map<Long, CallingHours> callingHours = new LinkedHashMap<>();
    /** Organizations' calling hours, for their campaigns without hours of their own. */
    public final Map<Long, CallingHours> organizationHours = new LinkedHashMap<>();
    public final Map<Long, Row> contacts = new LinkedHashMap<>();
    public final List<Call> calls = new ArrayList<>();
    public final List<CampaignTransition> transitions = new ArrayList<>();
    public final List<WebhookEvent> events = new ArrayList<>();
    /** The campaign log entries dispatch appended (beyond the skips' own). */
    public final List<CampaignLogEntry> logged = new ArrayList<>();
    public final List<CallRecord> recorded = new ArrayList<>();
    public int locksTaken;
    private final Set<String> doNotCall = new HashSet<>();
    private final Map<Long, Instant> breakerWindowFrom = new HashMap<>();
    private final Set<Long> heldByCallingHours = new HashSet<>();
    private final Map<Long, Instant> importLeases = new HashMap<>();
    private final List<Map.Entry<Long, WebhookEvent>> raised = new ArrayList<>();
    private final Set<Long> locked = new HashSet<>();
    private final Map<Long, Deque<Runnable>> waiting = new HashMap<>();
    private final AtomicLong ids = new AtomicLong(1000);

    public Campaign running(Campaign campaign) {
        campaigns.put(campaign.id(), campaign);
        return campaign;
    }

    public Row contact(long campaignId, long id, String phoneNumber, String timezone, boolean doNotCall, Instant due) {
        Row row = new Row(campaignId, campaigns.get(campaignId).organizationId(), new DueContact(id, (int) id,
                phoneNumber, timezone, Map.of(), 0, null, doNotCall), due);
        contacts.put(id, row);
        return row;
    }

    /** Lists a number on the organization's do-not-call list. */
    public void doNotCall(long organizationId, String phoneNumber) {
        doNotCall.add(organizationId + " " + phoneNumber);
    }

    /**
     * A live call of the organization placed at {@code startedAt}: a campaign's ({@code campaignId}) without a contact
     * of this ledger, or a single call (no campaign). Its id.
     */
    public long call(long organizationId, Long campaignId, Instant startedAt) {
        Call call = new Call(ids.incrementAndGet(), organizationId, ids.incrementAndGet(), campaignId, null, null,
                Provider.SIMULATOR, null, startedAt, startedAt.plus(Duration.ofMinutes(2)));
        calls.add(call);
        return call.id;
    }

    /** A call's final report, as the call reports write it: its status, when it ended and why it failed. */
    public void end(long callId, CallStatus status, Instant endedAt, String failureReason) {
        Call call = calls.stream().filter(c -> c.id == callId).findFirst().orElseThrow();
        call.status = status;
        call.endedAt = endedAt;
        call.failureReason = failureReason;
    }

    /** The types of the webhook events written for the organization, in order. */
    public List<String> eventTypes(long organizationId) {
        return raised.stream().filter(e -> e.getKey() == organizationId).map(e -> e.getValue().type()).toList();
    }

    @Override
    public Uni<List<Long>> organizationsWithRunningCampaigns() {
        return Uni.createFrom().item(campaigns.values().stream().filter(c -> c.state() == CampaignState.RUNNING)
                .map(Campaign::organizationId).distinct().toList());
    }

    @Override
    public Uni<List<RunningCampaign>> runningCampaigns(long organizationId) {
        return Uni.createFrom().item(campaigns.values().stream()
                .filter(c -> c.organizationId() == organizationId && c.state() == CampaignState.RUNNING)
                .sorted(Comparator.comparing(Campaign::id))
                .map(c -> new RunningCampaign(copy(c, c.processedRows(), List.of()), breakerWindowFrom.get(c.id()),
                        callingHours.getOrDefault(c.id(), organizationHours.get(organizationId)),
                        heldByCallingHours.contains(c.id())))
                .toList());
    }

    /** One organization's work at a time, as the Postgres ledger's advisory lock has it; another's waits its turn. */
    @Override
    public <T> Uni<T> underOrganizationLock(long organizationId, Function<Session, Uni<T>> work) {
        return Uni.createFrom().emitter(emitter -> acquire(organizationId, () -> {
            locksTaken++;
            Uni.createFrom().deferred(() -> work.apply(new MemorySession())).subscribe().with(item -> {
                release(organizationId);
                emitter.complete(item);
            }, failure -> {
                release(organizationId);
                emitter.fail(failure);
            });
        }));
    }

    private void acquire(long organizationId, Runnable work) {
        synchronized (locked) {
            if (!locked.add(organizationId)) {
                waiting.computeIfAbsent(organizationId, org -> new ArrayDeque<>()).add(work);
                return;
            }
        }
        work.run();
    }

    private void release(long organizationId) {
        Runnable next;
        synchronized (locked) {
            Deque<Runnable> queue = waiting.get(organizationId);
            next = queue == null ? null : queue.poll();
            if (next == null) {
                locked.remove(organizationId);
            }
        }
        if (next != null) {
            next.run();
        }
    }

    private final class MemorySession implements Session {

        @Override
        public Uni<Map<Long, CampaignLoad>> lockRunning(long organizationId, List<Long> campaignIds,
                Instant staleBefore) {
            Map<Long, CampaignLoad> loads = new LinkedHashMap<>();
            for (long id : campaignIds) {
                Campaign c = campaigns.get(id);
                if (c != null && c.organizationId() == organizationId && c.state() == CampaignState.RUNNING) {
                    boolean open = contacts.values().stream().anyMatch(r -> r.campaignId == id
                            && !r.state.equals("done"));
                    loads.put(id, new CampaignLoad(liveCalls(id, staleBefore), open));
                }
            }
            return Uni.createFrom().item(loads);
        }

        @Override
        public Uni<Long> activeCalls(long organizationId, Instant staleBefore) {
            return Uni.createFrom().item(calls.stream().filter(c -> c.organizationId == organizationId
                    && c.live(staleBefore)).count());
        }

        @Override
        public Uni<WindowCounts> outcomesSince(long campaignId, Instant since) {
            return InMemoryDispatchLedger.this.outcomesSince(campaignId, since);
        }

        @Override
        public Uni<List<DueContact>> claimDue(long campaignId, Instant now, int limit) {
            return Uni.createFrom().item(contacts.values().stream().filter(r -> r.campaignId == campaignId
                            && DUE_STATES.contains(r.state) && !r.dueAt.isAfter(now))
                    .sorted(Comparator.comparing((Row r) -> r.dueAt).thenComparing(r -> r.contact.id())).limit(limit)
                    .map(r -> new DueContact(r.contact.id(), r.contact.rowNumber(), r.contact.phoneNumber(),
                            r.contact.timezone(), r.contact.context(), r.attempts, r.outcome, r.contact.doNotCall()
                            || doNotCall.contains(r.organizationId + " " + r.contact.phoneNumber())))
                    .toList());
        }

        @Override
        public Uni<Void> skip(long organizationId, long campaignId, Map<Long, CampaignLogEntry> skipped,
                String outcome, List<WebhookEvent> skipEvents) {
            int count = 0;
            for (long id : skipped.keySet()) {
                Row row = contacts.get(id);
                if (row != null && row.campaignId == campaignId && DUE_STATES.contains(row.state)) {
                    row.state = "done";
                    row.outcome = outcome;
                    count++;
                }
            }
            Campaign campaign = campaigns.get(campaignId);
            campaigns.put(campaignId, copy(campaign, campaign.processedRows() + count, campaign.logs()));
            raised(organizationId, skipEvents);
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> defer(Map<Long, Instant> until, Map<Long, Instant> callingHoursAt) {
            until.forEach((id, at) -> contacts.get(id).dueAt = at);
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> heldByCallingHours(long organizationId, long campaignId, boolean held,
                CampaignLogEntry entry) {
            if (held) {
                heldByCallingHours.add(campaignId);
            } else {
                heldByCallingHours.remove(campaignId);
            }
            logged.add(entry);
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<List<CallRecord>> record(List<CallRecord> attempts, Instant leaseUntil) {
            Set<String> taken = new HashSet<>();
            calls.stream().filter(c -> c.contactId != null).forEach(c -> taken.add(c.contactId + "/" + c.attemptNumber));
            for (CallRecord a : attempts) {
                if (!taken.add(a.campaign().contactId() + "/" + a.campaign().attemptNumber())) {
                    return Uni.createFrom().failure(new IllegalStateException("duplicate key value violates unique"
                            + " constraint \"calls_contact_attempt_key\": contact " + a.campaign().contactId()
                            + ", attempt " + a.campaign().attemptNumber()));
                }
            }
            List<CallRecord> stored = new ArrayList<>();
            for (CallRecord a : attempts) {
                Row row = contacts.get(a.campaign().contactId());
                if (row.attempts == a.campaign().attemptNumber() - 1 && DUE_STATES.contains(row.state)) {
                    row.state = "dialing";
                    row.attempts = a.campaign().attemptNumber();
                }
                WorkflowRun run = a.run().withId(ids.incrementAndGet());
                CallAttempt attempt = a.attempt();
                Call call = new Call(ids.incrementAndGet(), run.organizationId(), run.id(), a.campaign().campaignId(),
                        a.campaign().contactId(), a.campaign().attemptNumber(), a.provider(), a.configurationId(),
                        attempt.startedAt(), leaseUntil);
                call.status = attempt.status();
                calls.add(call);
                stored.add(new CallRecord(new CallAttempt(call.id, call.organizationId, run.id(), null,
                        attempt.status(), attempt.startedAt(), null, null, null), run, a.provider(),
                        a.configurationId(), a.fromNumber(), a.toNumber(), a.campaign()));
            }
            recorded.addAll(stored);
            return Uni.createFrom().item(stored);
        }

        @Override
        public Uni<Boolean> transition(Campaign before, CampaignTransition transition) {
            Campaign current = campaigns.get(before.id());
            if (current == null || current.state() != before.state()) {
                return Uni.createFrom().item(false);
            }
            Campaign after = transition.campaign();
            campaigns.put(before.id(), new Campaign(current.id(), current.organizationId(), current.name(),
                    current.workflowId(), current.createdBy(), current.telephonyConfigurationId(),
                    current.sourceType(), current.sourceId(), after.state(), after.totalRows(),
                    current.processedRows(), current.failedRows(), current.retryConfig(), current.maxConcurrency(),
                    current.scheduleConfig(), current.circuitBreaker(), current.parentCampaignId(),
                    current.redialedCampaignId(), current.createdAt(), after.startedAt(), after.completedAt(),
                    after.logs()));
            if (before.state() == CampaignState.PAUSED && after.state() == CampaignState.RUNNING) {
                breakerWindowFrom.put(before.id(), transition.entry().ts());
            }
            transitions.add(transition);
            raised(before.organizationId(), transition.events());
            return Uni.createFrom().item(true);
        }
    }

    private void raised(long organizationId, List<WebhookEvent> written) {
        events.addAll(written);
        written.forEach(e -> raised.add(Map.entry(organizationId, e)));
    }

    private long liveCalls(long campaignId, Instant staleBefore) {
        return calls.stream().filter(c -> c.campaignId != null && c.campaignId == campaignId && c.live(staleBefore))
                .count();
    }

    @Override
    public Uni<List<ExpiredAttempt>> claimExpiredLeases(Instant now, Duration extension, int limit) {
        List<ExpiredAttempt> claimed = new ArrayList<>();
        calls.stream().filter(c -> !c.status.isFinal() && c.leaseUntil != null && c.leaseUntil.isBefore(now))
                .sorted(Comparator.comparing(c -> c.leaseUntil)).limit(limit).forEach(c -> {
                    c.leaseUntil = now.plus(extension);
                    claimed.add(new ExpiredAttempt(c.id, c.organizationId, c.runId, c.provider, c.configurationId,
                            null, c.startedAt));
                });
        return Uni.createFrom().item(claimed);
    }

    @Override
    public Uni<Optional<CampaignKey>> claimImport(Instant now, Instant leaseUntil) {
        Optional<Campaign> next = campaigns.values().stream()
                .filter(c -> c.totalRows() == null && c.startedAt() != null
                        && (c.state() == CampaignState.SYNCING || c.state() == CampaignState.PAUSED))
                .filter(c -> importLeases.get(c.id()) == null || importLeases.get(c.id()).isBefore(now))
                .min(Comparator.comparing(Campaign::id));
        next.ifPresent(c -> importLeases.put(c.id(), leaseUntil));
        return Uni.createFrom().item(next.map(c -> new CampaignKey(c.organizationId(), c.id())));
    }

    @Override
    public Uni<Void> renewImport(CampaignKey campaign, Instant leaseUntil) {
        Campaign c = campaigns.get(campaign.campaignId());
        if (c != null && c.organizationId() == campaign.organizationId()) {
            importLeases.put(c.id(), leaseUntil);
        }
        return Uni.createFrom().voidItem();
    }

    @Override
    public Uni<CampaignActivity> activity(long organizationId, long campaignId, Instant staleBefore) {
        Campaign c = campaigns.get(campaignId);
        return Uni.createFrom().item(c == null || c.organizationId() != organizationId ? new CampaignActivity(0, null)
                : new CampaignActivity(liveCalls(campaignId, staleBefore), breakerWindowFrom.get(campaignId)));
    }

    @Override
    public Uni<WindowCounts> outcomesSince(long campaignId, Instant since) {
        List<Call> ended = calls.stream().filter(c -> c.campaignId != null && c.campaignId == campaignId
                && c.endedAt != null && c.endedAt.isAfter(since)).toList();
        List<Call> failures = ended.stream().filter(c -> c.status.isFailure()).toList();
        List<String> recent = failures.stream()
                .sorted(Comparator.comparing((Call c) -> c.endedAt).thenComparing(c -> c.id).reversed()).limit(5)
                .map(c -> "run " + c.runId + ": " + c.status.wireName()
                        + (c.failureReason == null ? "" : " (" + c.failureReason + ")") + " at " + c.endedAt)
                .toList();
        return Uni.createFrom().item(new WindowCounts(ended.size(), failures.size(), recent));
    }

    private static Campaign copy(Campaign c, int processedRows, List<CampaignLogEntry> logs) {
        return new Campaign(c.id(), c.organizationId(), c.name(), c.workflowId(), c.createdBy(),
                c.telephonyConfigurationId(), c.sourceType(), c.sourceId(), c.state(), c.totalRows(), processedRows,
                c.failedRows(), c.retryConfig(), c.maxConcurrency(), c.scheduleConfig(), c.circuitBreaker(),
                c.parentCampaignId(), c.redialedCampaignId(), c.createdAt(), c.startedAt(), c.completedAt(), logs);
    }
}
