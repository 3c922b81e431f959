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
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The dispatcher's store in memory, with the semantics the Postgres ledger promises: due contacts in row order,
 * a claimed contact leaves the due set when it is skipped (final) or recorded (dialing), a deferred one comes back at
 * its time, a transition applies only from the state it was read in. It keeps what was written so a test can
 * assert it.
 */
public final class InMemoryDispatchLedger implements DispatchLedger {

    /** A contact row: its state (pending, dialing, done), when it is due, and how often it was dialed. */
    public static final class Row {
        public final long campaignId;
        public final DueContact contact;
        public String state = "pending";
        public Instant dueAt;
        public int attempts;
        public String outcome;

        Row(long campaignId, DueContact contact, Instant dueAt) {
            this.campaignId = campaignId;
            this.contact = contact;
            this.dueAt = dueAt;
        }
    }

    public final Map<Long, Campaign> campaigns = new LinkedHashMap<>();
    public final Map<Long, CallingHours> callingHours = new LinkedHashMap<>();
    public final Map<Long, Row> contacts = new LinkedHashMap<>();
    public final List<CampaignTransition> transitions = new ArrayList<>();
    public final List<WebhookEvent> events = new ArrayList<>();
    /** The campaign log entries dispatch appended (beyond the skips' own). */
    public final List<CampaignLogEntry> logged = new ArrayList<>();
    public final List<CallRecord> recorded = new ArrayList<>();
    /** Calls live per campaign (the ones this fake recorded, until a test ends them, plus any set by hand). */
    public final Map<Long, Long> liveCalls = new LinkedHashMap<>();
    public WindowCounts windowCounts = new WindowCounts(0, 0, List.of());
    public int locksTaken;
    private final AtomicLong ids = new AtomicLong(1000);

    public Campaign running(Campaign campaign) {
        campaigns.put(campaign.id(), campaign);
        return campaign;
    }

    public Row contact(long campaignId, long id, String phoneNumber, String timezone, boolean doNotCall, Instant due) {
        Row row = new Row(campaignId, new DueContact(id, (int) id, phoneNumber, timezone, Map.of(), 0, null,
                doNotCall), due);
        contacts.put(id, row);
        return row;
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
                .map(c -> new RunningCampaign(c, c.startedAt(), callingHours.get(c.id()), false)).toList());
    }

    @Override
    public <T> Uni<T> underOrganizationLock(long organizationId, Function<Session, Uni<T>> work) {
        locksTaken++;
        return work.apply(new MemorySession());
    }

    private final class MemorySession implements Session {

        @Override
        public Uni<Map<Long, CampaignLoad>> lockRunning(long organizationId, List<Long> campaignIds,
                Instant staleBefore) {
            Map<Long, CampaignLoad> loads = new LinkedHashMap<>();
            for (long id : campaignIds) {
                Campaign c = campaigns.get(id);
                if (c != null && c.state() == CampaignState.RUNNING) {
                    boolean open = contacts.values().stream().anyMatch(r -> r.campaignId == id
                            && !r.state.equals("done"));
                    loads.put(id, new CampaignLoad(liveCalls.getOrDefault(id, 0L), open));
                }
            }
            return Uni.createFrom().item(loads);
        }

        @Override
        public Uni<Long> activeCalls(long organizationId, Instant staleBefore) {
            return Uni.createFrom().item(campaigns.values().stream().filter(c -> c.organizationId() == organizationId)
                    .mapToLong(c -> liveCalls.getOrDefault(c.id(), 0L)).sum());
        }

        @Override
        public Uni<WindowCounts> outcomesSince(long campaignId, Instant since) {
            return Uni.createFrom().item(windowCounts);
        }

        @Override
        public Uni<List<DueContact>> claimDue(long campaignId, Instant now, int limit) {
            return Uni.createFrom().item(contacts.values().stream().filter(r -> r.campaignId == campaignId
                            && r.state.equals("pending") && !r.dueAt.isAfter(now)).limit(limit)
                    .map(r -> new DueContact(r.contact.id(), r.contact.rowNumber(), r.contact.phoneNumber(),
                            r.contact.timezone(), r.contact.context(), r.attempts, r.outcome, r.contact.doNotCall()))
                    .toList());
        }

        @Override
        public Uni<Void> skip(long organizationId, long campaignId, Map<Long, CampaignLogEntry> skipped,
                String outcome, List<WebhookEvent> skipEvents) {
            skipped.keySet().forEach(id -> {
                Row row = contacts.get(id);
                row.state = "done";
                row.outcome = outcome;
            });
            events.addAll(skipEvents);
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> defer(Map<Long, Instant> until, Map<Long, Instant> callingHours) {
            until.forEach((id, at) -> contacts.get(id).dueAt = at);
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> heldByCallingHours(long organizationId, long campaignId, boolean held,
                CampaignLogEntry entry) {
            logged.add(entry);
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<List<CallRecord>> record(List<CallRecord> attempts, Instant leaseUntil) {
            List<CallRecord> stored = new ArrayList<>();
            for (CallRecord a : attempts) {
                Row row = contacts.get(a.campaign().contactId());
                row.state = "dialing";
                row.attempts = a.campaign().attemptNumber();
                long runId = ids.incrementAndGet();
                WorkflowRun run = a.run().withId(runId);
                CallAttempt call = a.attempt();
                CallRecord record = new CallRecord(new CallAttempt(ids.incrementAndGet(), call.organizationId(), runId,
                        null, call.status(), call.startedAt(), null, null, null), run, a.provider(),
                        a.configurationId(), a.fromNumber(), a.toNumber(), a.campaign());
                liveCalls.merge(a.campaign().campaignId(), 1L, Long::sum);
                stored.add(record);
            }
            recorded.addAll(stored);
            return Uni.createFrom().item(stored);
        }

        @Override
        public Uni<Boolean> transition(Campaign before, CampaignTransition transition) {
            Campaign current = campaigns.get(before.id());
            if (current.state() != before.state()) {
                return Uni.createFrom().item(false);
            }
            campaigns.put(before.id(), transition.campaign());
            transitions.add(transition);
            events.addAll(transition.events());
            return Uni.createFrom().item(true);
        }
    }

    @Override
    public Uni<List<ExpiredAttempt>> claimExpiredLeases(Instant now, Duration extension, int limit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Uni<Optional<CampaignKey>> claimImport(Instant now, Instant leaseUntil) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Uni<Void> renewImport(CampaignKey campaign, Instant leaseUntil) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Uni<CampaignActivity> activity(long organizationId, long campaignId, Instant staleBefore) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Uni<WindowCounts> outcomesSince(long campaignId, Instant since) {
        return Uni.createFrom().item(windowCounts);
    }
}
