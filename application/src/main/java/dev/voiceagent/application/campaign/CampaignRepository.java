package dev.voiceagent.application.campaign;

import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.application.call.RetryConfigs;
import dev.voiceagent.domain.campaign.CampaignTransition;
import dev.voiceagent.domain.campaign.RetryConfig;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Out-port: campaigns and their append-only logs, always within one organization. */
public interface CampaignRepository extends RetryConfigs {

    /** Stores a new campaign (and any log entries it carries); returns it with its id. */
    Uni<Campaign> insert(Campaign campaign);

    /**
     * In one transaction: stores the redial, copies the parent's contacts whose last call ended in one
     * of {@code outcomes} (as pending) and marks the parent redialed. Empty when the parent is no
     * longer a completed, un-redialed campaign (a concurrent redial won).
     */
    Uni<Optional<Campaign>> insertRedial(Campaign parent, Campaign child, List<String> outcomes);

    /**
     * Writes a transition and its log entry in one transaction, only if the campaign is still in the
     * state it was read in (false when another request changed it first).
     */
    Uni<Boolean> applyTransition(Campaign before, CampaignTransition transition);

    /**
     * Writes the settings the transition changed (only those: a concurrent change of another
     * setting is kept) and its log entry, in one transaction, while the campaign is still in the
     * state it was read in; false when it is not.
     */
    Uni<Boolean> applySettings(Campaign before, CampaignTransition transition, Set<String> changed);

    /** Appends to the log; entries keep the order in which they were written. */
    Uni<Void> appendLog(long organizationId, long campaignId, CampaignLogEntry entry);

    /** Newest first, with a constant number of queries however many campaigns there are. */
    Uni<List<CampaignView>> listViews(long organizationId);

    Uni<Optional<CampaignView>> findView(long organizationId, long campaignId);

    /** The retry settings a campaign runs with (read for every final outcome of its calls). */
    @Override
    default Uni<Optional<RetryConfig>> retryConfig(long organizationId, long campaignId) {
        return findView(organizationId, campaignId).map(found -> found.map(view -> view.campaign().retryConfig()));
    }

    /** The organization's most recently created campaign. */
    Uni<Optional<CampaignView>> latest(long organizationId);

    /**
     * Folds the tallies of up to {@code limit} campaigns that changed since their last fold into one
     * row each (the counts the list reads are the sums of a campaign's tallies; folding keeps them
     * short). Safe on any number of replicas at once. Returns how many campaigns were folded.
     */
    Uni<Integer> foldTallies(int limit);
}
