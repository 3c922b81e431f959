package dev.voiceagent.application.campaign;

import dev.voiceagent.application.fakes.InMemoryDispatchLedger;
import dev.voiceagent.domain.calling.CallingHours;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.telephony.CallStatus;
import java.time.Instant;
import java.util.List;

/** The in-memory ledger the application's tests use, held to the ledger's contract as PostgreSQL's is. */
class InMemoryDispatchLedgerTest extends AbstractDispatchLedgerTest {

    private final InMemoryDispatchLedger ledger = new InMemoryDispatchLedger();
    private long ids;

    @Override
    protected DispatchLedger ledger() {
        return ledger;
    }

    @Override
    protected Org organization() {
        return new Org(++ids, ++ids, ++ids, ++ids);
    }

    private Campaign created(Org org) {
        return Campaign.create(org.id(), 1, "Promo", org.workflowId(), org.configurationId(), "campaigns/x.csv", null,
                5, null, null, NOW).withId(++ids);
    }

    @Override
    protected Campaign runningCampaign(Org org) {
        Campaign syncing = created(org).start(NOW).campaign();
        return ledger.running(syncing.contactsLoaded(3, NOW).campaign());
    }

    @Override
    protected Campaign importingCampaign(Org org) {
        return ledger.running(created(org).start(NOW).campaign());
    }

    @Override
    protected long contact(Campaign campaign, int row, Instant due) {
        long id = ++ids;
        ledger.contact(campaign.id(), id, phone(row), null, false, due);
        return id;
    }

    @Override
    protected long waitingContact(Campaign campaign, int row, Instant due, int attempts, String outcome) {
        long id = contact(campaign, row, due);
        InMemoryDispatchLedger.Row contact = ledger.contacts.get(id);
        contact.state = "waiting_retry";
        contact.attempts = attempts;
        contact.outcome = outcome;
        return id;
    }

    @Override
    protected void doNotCall(Org org, String phoneNumber) {
        ledger.doNotCall(org.id(), phoneNumber);
    }

    @Override
    protected void organizationHours(Org org, CallingHours hours) {
        ledger.organizationHours.put(org.id(), hours);
    }

    @Override
    protected void campaignHours(Campaign campaign, CallingHours hours) {
        ledger.callingHours.put(campaign.id(), hours);
    }

    @Override
    protected String contactState(long contact) {
        return ledger.contacts.get(contact).state;
    }

    @Override
    protected int contactAttempts(long contact) {
        return ledger.contacts.get(contact).attempts;
    }

    @Override
    protected long singleCall(Org org, Instant startedAt) {
        return ledger.call(org.id(), null, startedAt);
    }

    @Override
    protected void endCall(long callId, CallStatus status, Instant endedAt, String failureReason) {
        ledger.end(callId, status, endedAt, failureReason);
    }

    @Override
    protected List<String> eventTypes(Org org) {
        return ledger.eventTypes(org.id());
    }
}
