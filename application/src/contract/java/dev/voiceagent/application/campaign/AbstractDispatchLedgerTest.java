package dev.voiceagent.application.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.call.CallRecord;
import dev.voiceagent.application.call.CampaignAttempt;
import dev.voiceagent.application.campaign.DispatchLedger.CampaignActivity;
import dev.voiceagent.application.campaign.DispatchLedger.CampaignKey;
import dev.voiceagent.application.campaign.DispatchLedger.CampaignLoad;
import dev.voiceagent.application.campaign.DispatchLedger.ExpiredAttempt;
import dev.voiceagent.application.campaign.DispatchLedger.RunningCampaign;
import dev.voiceagent.application.campaign.DispatchLedger.WindowCounts;
import dev.voiceagent.domain.calling.CallingHours;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.CampaignState;
import dev.voiceagent.domain.campaign.CampaignTransition;
import dev.voiceagent.domain.campaign.DueContact;
import dev.voiceagent.domain.campaign.LogLevel;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What the dispatcher may rely on from its ledger (the out-port {@link DispatchLedger}), held against every
 * implementation: the in-memory one the application's tests use and PostgreSQL's. A subclass gives the ledger and the
 * fixtures the port does not write itself (organizations, campaigns, contacts, the do-not-call list, calling hours,
 * single calls and call reports). Each organization is fresh, so the PostgreSQL run may share its database.
 */
public abstract class AbstractDispatchLedgerTest {

    protected static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MICROS);
    private static final Instant LONG_AGO = NOW.minus(Duration.ofHours(2));

    /** An organization, with the workflow, published version and telephony configuration its runs name. */
    public record Org(long id, long workflowId, long definitionId, long configurationId) {
    }

    protected abstract DispatchLedger ledger();

    protected abstract Org organization();

    /** A campaign of {@code org} started and with its contacts loaded: running, as the ledger reads it. */
    protected abstract Campaign runningCampaign(Org org);

    /** A campaign of {@code org} started whose contacts are still to be imported (syncing, no total yet). */
    protected abstract Campaign importingCampaign(Org org);

    /** A pending contact of the campaign at {@code row}, phone number {@link #phone(int)}, due at {@code due}. */
    protected abstract long contact(Campaign campaign, int row, Instant due);

    /** A contact waiting for its retry at {@code due}, after {@code attempts} attempts that ended {@code outcome}. */
    protected abstract long waitingContact(Campaign campaign, int row, Instant due, int attempts, String outcome);

    protected abstract void doNotCall(Org org, String phoneNumber);

    protected abstract void organizationHours(Org org, CallingHours hours);

    protected abstract void campaignHours(Campaign campaign, CallingHours hours);

    protected abstract String contactState(long contact);

    protected abstract int contactAttempts(long contact);

    /** A live call of the organization outside any campaign, placed at {@code startedAt}: its id. */
    protected abstract long singleCall(Org org, Instant startedAt);

    /** A call's final report, as the call reports write it. */
    protected abstract void endCall(long callId, CallStatus status, Instant endedAt, String failureReason);

    /** The types of the webhook events written for the organization, in order. */
    protected abstract List<String> eventTypes(Org org);

    protected static String phone(int row) {
        return "+1415555" + String.format("%04d", row);
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(Duration.ofSeconds(20));
    }

    private <T> T locked(Org org, java.util.function.Function<DispatchLedger.Session, Uni<T>> work) {
        return await(ledger().underOrganizationLock(org.id(), work));
    }

    private boolean transition(Org org, Campaign before, CampaignTransition transition) {
        return locked(org, session -> session.transition(before, transition));
    }

    private long activeCalls(Org org, Instant staleBefore) {
        return locked(org, session -> session.activeCalls(org.id(), staleBefore));
    }

    private Map<Long, CampaignLoad> loads(Org org, long organizationId, List<Long> campaignIds) {
        return locked(org, session -> session.lockRunning(organizationId, campaignIds, LONG_AGO));
    }

    private List<DueContact> due(Org org, Campaign campaign, Instant now, int limit) {
        return locked(org, session -> session.claimDue(campaign.id(), now, limit));
    }

    private static List<Long> ids(List<DueContact> due) {
        return due.stream().map(DueContact::id).toList();
    }

    /** The next attempt of a claimed contact, as the dispatcher records it. */
    private static CallRecord attempt(Org org, Campaign campaign, DueContact contact, Instant at) {
        int number = contact.attempts() + 1;
        WorkflowRun run = WorkflowRun.initialized(org.id(), org.workflowId(), org.definitionId(),
                        "WR-CAMPAIGN-" + campaign.id() + "-" + contact.id() + "-" + number, "simulator", "outbound",
                        Map.of("phone_number", contact.phoneNumber()), at)
                .withCampaign(campaign.id());
        return new CallRecord(CallAttempt.dialing(org.id(), 0, at), run, Provider.SIMULATOR, org.configurationId(),
                "+14155550100", contact.phoneNumber(), new CampaignAttempt(campaign.id(), contact.id(), number));
    }

    /** Claims the campaign's due contacts and records an attempt of each, in one session: the records. */
    private List<CallRecord> dial(Org org, Campaign campaign, Instant now, Instant leaseUntil) {
        return locked(org, session -> session.claimDue(campaign.id(), now, 100).chain(due -> session.record(
                due.stream().map(contact -> attempt(org, campaign, contact, now)).toList(), leaseUntil)));
    }

    private RunningCampaign running(Org org, Campaign campaign) {
        return await(ledger().runningCampaigns(org.id())).stream().filter(r -> r.campaign().id().equals(campaign.id()))
                .findFirst().orElseThrow();
    }

    private static CampaignLogEntry entry(String event, Map<String, Object> details) {
        return new CampaignLogEntry(NOW, LogLevel.INFO, event, event, details);
    }

    @Test
    public void aRunningCampaignIsListedWithItsHoursAndHoldUntilItPausesAndItsBreakerRestartsOnResume() {
        Org org = organization();
        Org idle = organization();
        Campaign campaign = runningCampaign(org);
        assertThat(await(ledger().organizationsWithRunningCampaigns())).contains(org.id()).doesNotContain(idle.id());
        RunningCampaign listed = running(org, campaign);
        assertThat(listed.campaign().state()).isEqualTo(CampaignState.RUNNING);
        assertThat(listed.campaign().logs()).as("read without its log").isEmpty();
        assertThat(listed.callingHours()).isNull();
        assertThat(listed.breakerWindowFrom()).as("no fresh window before a resume").isNull();
        assertThat(listed.heldByCallingHours()).isFalse();
        assertThat(await(ledger().runningCampaigns(idle.id()))).isEmpty();

        CallingHours organizations = new CallingHours(LocalTime.of(9, 0), LocalTime.of(17, 0));
        organizationHours(org, organizations);
        assertThat(running(org, campaign).callingHours()).isEqualTo(organizations);
        CallingHours own = new CallingHours(LocalTime.of(10, 0), LocalTime.of(12, 30));
        campaignHours(campaign, own);
        assertThat(running(org, campaign).callingHours()).as("the campaign's own first").isEqualTo(own);

        locked(org, session -> session.heldByCallingHours(org.id(), campaign.id(), true, entry("held", Map.of())));
        assertThat(running(org, campaign).heldByCallingHours()).isTrue();
        locked(org, session -> session.heldByCallingHours(org.id(), campaign.id(), false, entry("released",
                Map.of())));
        assertThat(running(org, campaign).heldByCallingHours()).isFalse();

        int events = eventTypes(org).size();
        CampaignTransition pause = campaign.pause(NOW, null);
        assertThat(transition(org, campaign, pause)).isTrue();
        assertThat(await(ledger().runningCampaigns(org.id()))).isEmpty();
        assertThat(await(ledger().organizationsWithRunningCampaigns())).doesNotContain(org.id());
        assertThat(transition(org, campaign, campaign.pause(NOW, "again")))
                .as("computed from the campaign as it was: refused").isFalse();
        assertThat(eventTypes(org).subList(events, eventTypes(org).size())).containsExactly("campaign.paused");

        Campaign paused = pause.campaign();
        Instant resumedAt = NOW.plusSeconds(30);
        assertThat(transition(org, paused, paused.resume(resumedAt))).isTrue();
        assertThat(running(org, campaign).breakerWindowFrom()).isEqualTo(resumedAt);
        assertThat(await(ledger().activity(org.id(), campaign.id(), LONG_AGO)))
                .isEqualTo(new CampaignActivity(0, resumedAt));
        assertThat(await(ledger().activity(idle.id(), campaign.id(), LONG_AGO))).as("another organization's")
                .isEqualTo(new CampaignActivity(0, null));
    }

    @Test
    public void dueContactsAreClaimedInDueOrderWithTheirHistoryAndTheDoNotCallList() {
        Org org = organization();
        Campaign campaign = runningCampaign(org);
        Campaign other = runningCampaign(org);
        long first = contact(campaign, 2, NOW.minusSeconds(5));
        long earliest = contact(campaign, 3, NOW.minusSeconds(10));
        long retry = waitingContact(campaign, 4, NOW.minusSeconds(1), 1, "no-answer");
        contact(campaign, 5, NOW.plusSeconds(600));
        long elsewhere = contact(other, 2, NOW.minusSeconds(5));
        doNotCall(org, phone(3));

        List<DueContact> due = due(org, campaign, NOW, 10);
        assertThat(ids(due)).as("due ones of this campaign, earliest first").containsExactly(earliest, first, retry);
        assertThat(due.get(0).doNotCall()).as("listed").isTrue();
        assertThat(due.get(1).doNotCall()).isFalse();
        assertThat(due.get(0).phoneNumber()).isEqualTo(phone(3));
        assertThat(due.get(2).attempts()).isOne();
        assertThat(due.get(2).lastOutcome()).isEqualTo("no-answer");
        assertThat(due.get(1).attempts()).isZero();
        assertThat(ids(due(org, campaign, NOW, 2))).containsExactly(earliest, first);
        assertThat(ids(due(org, other, NOW, 10))).containsExactly(elsewhere);
        assertThat(ids(due(org, campaign, NOW.plusSeconds(600), 10))).hasSize(4);
    }

    @Test
    public void aSkipIsFinalAndCountedOnlyForAContactStillToBeDialedAndADeferredOneWaitsForItsTime() {
        Org org = organization();
        Campaign campaign = runningCampaign(org);
        long a = contact(campaign, 2, NOW.minusSeconds(3));
        long b = contact(campaign, 3, NOW.minusSeconds(2));
        long c = contact(campaign, 4, NOW.minusSeconds(1));
        int processed = running(org, campaign).campaign().processedRows();
        int events = eventTypes(org).size();

        CampaignLogEntry skipped = new CampaignLogEntry(NOW, LogLevel.WARNING, "contact_skipped", "listed",
                Map.of("contact_id", b, "reason", "do_not_call"));
        locked(org, session -> session.skip(org.id(), campaign.id(), Map.of(b, skipped), "skipped_do_not_call",
                List.of(new WebhookEvent.ContactSkipped(NOW, campaign.id(), skipped.details())))
                .chain(() -> session.defer(Map.of(c, NOW.plusSeconds(60)), Map.of(c, NOW.plusSeconds(60)))));
        assertThat(contactState(b)).isEqualTo("done");
        assertThat(running(org, campaign).campaign().processedRows()).isEqualTo(processed + 1);
        assertThat(eventTypes(org).subList(events, eventTypes(org).size())).containsExactly("contact.skipped");
        assertThat(ids(due(org, campaign, NOW, 10))).as("the skipped one is final, the deferred one waits")
                .containsExactly(a);
        assertThat(ids(due(org, campaign, NOW.plusSeconds(61), 10))).containsExactly(a, c);

        dial(org, campaign, NOW, NOW.plusSeconds(120));
        locked(org, session -> session.skip(org.id(), campaign.id(), Map.of(a, skipped), "skipped_do_not_call",
                List.of()));
        assertThat(contactState(a)).as("being dialed: not skipped").isEqualTo("dialing");
        assertThat(running(org, campaign).campaign().processedRows()).isEqualTo(processed + 1);
    }

    @Test
    public void anAttemptIsRecordedOnceBeforeItsDialAndCountsAsALiveCallUntilItEnds() {
        Org org = organization();
        Campaign campaign = runningCampaign(org);
        Campaign paused = runningCampaign(org);
        transition(org, paused, paused.pause(NOW, null));
        long contact = contact(campaign, 2, NOW.minusSeconds(1));
        long retry = waitingContact(campaign, 3, NOW.minusSeconds(1), 2, "busy");

        List<CallRecord> records = dial(org, campaign, NOW, NOW.plusSeconds(120));
        assertThat(records).hasSize(2);
        CallRecord first = records.getFirst();
        assertThat(first.attempt().id()).isNotNull();
        assertThat(first.run().id()).isNotNull().isEqualTo(first.attempt().runId());
        assertThat(first.run().campaignId()).isEqualTo(campaign.id());
        assertThat(first.run().name()).isEqualTo("WR-CAMPAIGN-" + campaign.id() + "-" + contact + "-1");
        assertThat(first.attempt().status()).isEqualTo(CallStatus.INITIATED);
        assertThat(records).extracting(r -> r.campaign().attemptNumber()).containsExactly(1, 3);
        assertThat(contactState(contact)).isEqualTo("dialing");
        assertThat(contactAttempts(contact)).isOne();
        assertThat(contactAttempts(retry)).isEqualTo(3);
        assertThat(due(org, campaign, NOW, 10)).as("being dialed: not due").isEmpty();

        assertThat(loads(org, org.id(), List.of(campaign.id(), paused.id()))).as("the paused campaign is not locked")
                .isEqualTo(Map.of(campaign.id(), new CampaignLoad(2, true)));
        assertThat(loads(org, organization().id(), List.of(campaign.id()))).as("another organization's").isEmpty();
        long single = singleCall(org, NOW.minusSeconds(30));
        assertThat(activeCalls(org, LONG_AGO)).as("every source").isEqualTo(3);
        assertThat(activeCalls(org, NOW.minusSeconds(10))).as("placed before the stale limit: not counted")
                .isEqualTo(2);
        assertThat(await(ledger().activity(org.id(), campaign.id(), LONG_AGO)).activeCalls()).isEqualTo(2);

        DueContact again = new DueContact(contact, 2, phone(2), null, Map.of(), 0, null, false);
        assertThatThrownBy(() -> locked(org, session -> session.record(List.of(attempt(org, campaign, again, NOW)),
                NOW.plusSeconds(120)))).as("the same attempt twice");
        assertThat(activeCalls(org, LONG_AGO)).as("nothing written").isEqualTo(3);

        endCall(first.attempt().id(), CallStatus.COMPLETED, NOW.plusSeconds(40), null);
        endCall(single, CallStatus.COMPLETED, NOW.plusSeconds(40), null);
        assertThat(activeCalls(org, LONG_AGO)).isOne();
        assertThat(loads(org, org.id(), List.of(campaign.id()))).isEqualTo(Map.of(campaign.id(),
                new CampaignLoad(1, true)));
    }

    @Test
    public void theBreakersWindowCountsTheCallsEndedInItAndNamesTheLatestFailures() {
        Org org = organization();
        Campaign campaign = runningCampaign(org);
        for (int row = 2; row <= 9; row++) {
            contact(campaign, row, NOW.minusSeconds(1));
        }
        List<CallRecord> calls = dial(org, campaign, NOW, NOW.plusSeconds(120));
        Instant since = NOW.plusSeconds(10);
        CallStatus[] outcomes = {CallStatus.FAILED, CallStatus.COMPLETED, CallStatus.BUSY, CallStatus.NO_ANSWER,
                CallStatus.FAILED, CallStatus.ERROR, CallStatus.FAILED, CallStatus.ERROR};
        for (int i = 0; i < outcomes.length; i++) { // the first ends before the window, the others a second apart
            endCall(calls.get(i).attempt().id(), outcomes[i], i == 0 ? NOW.plusSeconds(5) : since.plusSeconds(i),
                    outcomes[i].isFailure() ? "reason " + i : null);
        }
        WindowCounts window = await(ledger().outcomesSince(campaign.id(), since));
        assertThat(window.calls()).isEqualTo(7);
        assertThat(window.failures()).as("failed and error only").isEqualTo(4);
        assertThat(window.recentFailures()).containsExactly(
                "run " + calls.get(7).run().id() + ": error (reason 7) at " + since.plusSeconds(7),
                "run " + calls.get(6).run().id() + ": failed (reason 6) at " + since.plusSeconds(6),
                "run " + calls.get(5).run().id() + ": error (reason 5) at " + since.plusSeconds(5),
                "run " + calls.get(4).run().id() + ": failed (reason 4) at " + since.plusSeconds(4));
        WindowCounts inSession = locked(org, session -> session.outcomesSince(campaign.id(), since));
        assertThat(inSession).isEqualTo(window);
        assertThat(await(ledger().outcomesSince(campaign.id(), since.plusSeconds(7))))
                .isEqualTo(new WindowCounts(0, 0, List.of()));
    }

    @Test
    public void concurrentDispatchesOfAnOrganizationTakeTurnsAndNeverClaimAContactTwice() {
        Org org = organization();
        Campaign campaign = runningCampaign(org);
        for (int row = 2; row <= 6; row++) {
            contact(campaign, row, NOW.minusSeconds(1));
        }
        record Dispatch(long liveBefore, List<CallRecord> recorded) {
        }
        List<Uni<Dispatch>> dispatches = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            dispatches.add(ledger().underOrganizationLock(org.id(), session -> session.activeCalls(org.id(), LONG_AGO)
                    .chain(live -> session.claimDue(campaign.id(), NOW, 10).chain(due -> session.record(
                            due.stream().map(c -> attempt(org, campaign, c, NOW)).toList(), NOW.plusSeconds(120)))
                            .map(recorded -> new Dispatch(live, recorded)))));
        }
        List<Dispatch> done = await(Uni.join().all(dispatches).andFailFast());
        assertThat(done).extracting(d -> d.liveBefore() + "/" + d.recorded().size())
                .as("one dialed all five, the other then saw their calls and found nothing due")
                .containsExactlyInAnyOrder("0/5", "5/0");
        Set<Long> contacts = done.stream().flatMap(d -> d.recorded().stream()).map(r -> r.campaign().contactId())
                .collect(Collectors.toSet());
        assertThat(contacts).hasSize(5);
    }

    @Test
    public void anExpiredLeaseIsClaimedByOneReplicaAndHeldUntilItsExtensionExpires() {
        Org org = organization();
        Campaign campaign = runningCampaign(org);
        contact(campaign, 2, NOW.minusSeconds(1));
        CallRecord soon = dial(org, campaign, NOW, NOW.plusSeconds(120)).getFirst();
        contact(campaign, 3, NOW.minusSeconds(1));
        CallRecord later = dial(org, campaign, NOW, NOW.plusSeconds(600)).getFirst();

        List<ExpiredAttempt> claimed = mine(org, await(ledger().claimExpiredLeases(NOW.plusSeconds(180),
                Duration.ofSeconds(60), 1000)));
        assertThat(claimed).containsExactly(new ExpiredAttempt(soon.attempt().id(), org.id(), soon.run().id(),
                Provider.SIMULATOR, org.configurationId(), null, NOW));
        assertThat(mine(org, await(ledger().claimExpiredLeases(NOW.plusSeconds(200), Duration.ofSeconds(60), 1000))))
                .as("extended by its claim").isEmpty();

        List<List<ExpiredAttempt>> replicas = await(Uni.join().all(
                ledger().claimExpiredLeases(NOW.plusSeconds(300), Duration.ofSeconds(60), 1000),
                ledger().claimExpiredLeases(NOW.plusSeconds(300), Duration.ofSeconds(60), 1000)).andFailFast());
        assertThat(mine(org, replicas.get(0)).size() + mine(org, replicas.get(1)).size()).as("by one of two replicas")
                .isOne();

        endCall(later.attempt().id(), CallStatus.COMPLETED, NOW.plusSeconds(60), null);
        assertThat(mine(org, await(ledger().claimExpiredLeases(NOW.plusSeconds(900), Duration.ofSeconds(60), 1000))))
                .as("an ended call is never reconciled").extracting(ExpiredAttempt::callId)
                .containsExactly(soon.attempt().id());
    }

    private static List<ExpiredAttempt> mine(Org org, List<ExpiredAttempt> claimed) {
        return claimed.stream().filter(e -> e.organizationId() == org.id()).toList();
    }

    @Test
    public void anImportIsClaimedByOneReplicaAtATimeUntilItsLeaseExpiresOrIsRenewed() {
        Org org = organization();
        Campaign importing = importingCampaign(org);
        Campaign loaded = runningCampaign(org);
        CampaignKey key = new CampaignKey(org.id(), importing.id());
        List<CampaignKey> first = claimAll(NOW, NOW.plusSeconds(60));
        assertThat(first).contains(key).doesNotContain(new CampaignKey(org.id(), loaded.id()));
        assertThat(claimAll(NOW.plusSeconds(30), NOW.plusSeconds(90))).as("its lease holds").doesNotContain(key);
        assertThat(claimAll(NOW.plusSeconds(61), NOW.plusSeconds(120))).as("its lease expired").contains(key);

        await(ledger().renewImport(key, NOW.plusSeconds(600)));
        assertThat(claimAll(NOW.plusSeconds(300), NOW.plusSeconds(360))).as("renewed").doesNotContain(key);
        assertThat(claimAll(NOW.plusSeconds(601), NOW.plusSeconds(700))).contains(key);
    }

    /** Every import claimable at {@code now}, one claim at a time, as replicas' ticks take them. */
    private List<CampaignKey> claimAll(Instant now, Instant leaseUntil) {
        List<CampaignKey> claimed = new ArrayList<>();
        for (Optional<CampaignKey> next = await(ledger().claimImport(now, leaseUntil)); next.isPresent();
                next = await(ledger().claimImport(now, leaseUntil))) {
            assertThat(claimed).as("each claimed once").doesNotContain(next.get());
            claimed.add(next.get());
        }
        return claimed;
    }
}
