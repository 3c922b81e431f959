package dev.voiceagent.application.campaign;

import dev.voiceagent.domain.calling.CallingHours;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.application.call.CallRecord;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignTransition;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.campaign.DueContact;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Out-port: the dispatcher's view of PostgreSQL. Everything that decides who is dialed happens in
 * one transaction per organization, under the same lock single calls take, so the limits are exact
 * with any number of replicas; attempts are committed before any provider is called.
 */
public interface DispatchLedger {

    /** Organizations with at least one running campaign. */
    Uni<List<Long>> organizationsWithRunningCampaigns();

    /** The organization's running campaigns (without their logs) and when each breaker window was last reset. */
    Uni<List<RunningCampaign>> runningCampaigns(long organizationId);

    /** Opens a transaction, takes the organization's call lock and runs {@code work} in it. */
    <T> Uni<T> underOrganizationLock(long organizationId, Function<Session, Uni<T>> work);

    /**
     * Claims attempts whose lease expired with no final outcome (skipping those another replica is
     * reconciling) and extends their lease by {@code extension} so nobody else takes them meanwhile.
     */
    Uni<List<ExpiredAttempt>> claimExpiredLeases(Instant now, Duration extension, int limit);

    /**
     * Claims one campaign whose contacts are still to be imported (started, not yet loaded, paused
     * included) and whose import lease is free or expired, holding it until {@code leaseUntil}.
     */
    Uni<Optional<CampaignKey>> claimImport(Instant now, Instant leaseUntil);

    /** Keeps the import lease while the import makes progress. */
    Uni<Void> renewImport(CampaignKey campaign, Instant leaseUntil);

    /** A campaign's live calls and when its breaker window was last reset (for progress). */
    Uni<CampaignActivity> activity(long organizationId, long campaignId, Instant staleBefore);

    /** As {@link Session#outcomesSince}, outside a dispatch transaction. */
    Uni<WindowCounts> outcomesSince(long campaignId, Instant since);

    record CampaignActivity(long activeCalls, Instant breakerWindowFrom) {
    }

    /** The transaction-bound operations of one organization's dispatch. */
    interface Session {

        /** Locks the campaigns that are still running (a concurrent pause waits for this transaction) and counts them. */
        Uni<Map<Long, CampaignLoad>> lockRunning(long organizationId, List<Long> campaignIds, Instant staleBefore);

        /** The organization's calls that have not ended, every source counted. */
        Uni<Long> activeCalls(long organizationId, Instant staleBefore);

        /** Final outcomes of the campaign's calls that ended after {@code since}: counts and the latest failures. */
        Uni<WindowCounts> outcomesSince(long campaignId, Instant since);

        /** Due contacts (pending, or waiting for a retry whose time came), row-locked, skipping locked ones. */
        Uni<List<DueContact>> claimDue(long campaignId, Instant now, int limit);

        /**
         * Finishes claimed contacts without dialing them (final, counted as processed, not as failed), each with
         * its log entry, and writes the webhook events the skips raise (contact.skipped). A contact no longer to be
         * dialed (being dialed, or done) is left as it is.
         */
        Uni<Void> skip(long organizationId, long campaignId, Map<Long, CampaignLogEntry> contacts, String outcome,
                List<WebhookEvent> events);

        /** Puts contacts off until the given instants (their calling window is closed). */
        Uni<Void> defer(Map<Long, Instant> until, Map<Long, Instant> callingHours);

        /** Records that calling hours now hold the campaign back ({@code held}) or no longer do, with its log entry. */
        Uni<Void> heldByCallingHours(long organizationId, long campaignId, boolean held, CampaignLogEntry entry);

        /**
         * Writes each run and its call attempt and marks the contact dialing (when the attempt is its next one);
         * returns them with their ids. A contact's attempt is written once: recording it again fails, writing
         * nothing. Recording none writes nothing.
         */
        Uni<List<CallRecord>> record(List<CallRecord> attempts, Instant leaseUntil);

        /** A campaign transition and its log entry, within this transaction. */
        Uni<Boolean> transition(Campaign before, CampaignTransition transition);
    }

    record CampaignKey(long organizationId, long campaignId) {
    }

    /**
     * A running campaign, its breaker's window start, and the calling hours it dials in: its own, else its
     * organization's (null when neither set any: the installation's default applies).
     */
    /** A running campaign, with whether legal calling hours hold its dispatch back (as its log last said). */
    record RunningCampaign(Campaign campaign, Instant breakerWindowFrom,
            CallingHours callingHours, boolean heldByCallingHours) {
    }

    /** A running campaign's calls that have not ended, and whether any contact is not finished yet. */
    record CampaignLoad(long activeCalls, boolean openContacts) {
    }

    record WindowCounts(long calls, long failures, List<String> recentFailures) {
    }

    record ExpiredAttempt(long callId, long organizationId, long runId, Provider provider, Long configurationId,
            String providerCallId, Instant startedAt) {
    }
}
