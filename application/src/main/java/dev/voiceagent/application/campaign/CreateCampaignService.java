package dev.voiceagent.application.campaign;

import dev.voiceagent.application.source.ContactSourceReader;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.telephony.OutboundConfigurations;
import dev.voiceagent.application.telephony.PhoneNumberNormalizer;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.ContactSourceCheck;
import dev.voiceagent.domain.campaign.LogLevel;
import dev.voiceagent.domain.storage.ObjectKeys;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.domain.workflow.TemplateVariables;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Creating a campaign checks, in order: the workflow, the source (the caller's own file; header,
 * numbers valid for the provider, no duplicates, every template variable present and filled), the
 * telephony configuration (ready for outbound), and max_concurrency against the effective limit.
 */
public class CreateCampaignService implements CreateCampaignUseCase {

    private final WorkflowRepository workflows;
    private final TelephonyConfigurationRepository configurations;
    private final CallRepository calls;
    private final ContactSourceReader sources;
    private final PhoneNumberNormalizer normalizer;
    private final CampaignRepository campaigns;
    private final Clock clock;
    private final int defaultLimit;
    private final ObjectStore store;
    private final long maxSourceBytes;

    public CreateCampaignService(WorkflowRepository workflows, TelephonyConfigurationRepository configurations,
            CallRepository calls, ContactSourceReader sources, PhoneNumberNormalizer normalizer,
            CampaignRepository campaigns, Clock clock, int defaultLimit, ObjectStore store, long maxSourceBytes) {
        this.store = store;
        this.maxSourceBytes = maxSourceBytes;
        this.workflows = workflows;
        this.configurations = configurations;
        this.calls = calls;
        this.sources = sources;
        this.normalizer = normalizer;
        this.campaigns = campaigns;
        this.clock = clock;
        this.defaultLimit = Math.max(1, defaultLimit);
    }

    @Override
    public Uni<CampaignView> create(CreateCampaignCommand c) {
        long org = c.principal().organizationId();
        // the workflow first (the reference's order): another organization's workflow is a 404 whatever the rest
        return workflows.find(org, c.workflowId())
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")))
                .invoke(workflow -> {
                    try {
                        ObjectKeys.checkOwner(c.sourceId(), org);
                    } catch (ObjectKeys.ForeignKeyException e) {
                        throw new ForbiddenException("Access denied: Source file does not belong to your organization");
                    }
                })
                .chain(workflow -> OutboundConfigurations.resolve(configurations, org, c.telephonyConfigurationId())
                        .chain(view -> {
                            var provider = view.configuration().provider();
                            ContactSourceCheck check = new ContactSourceCheck(
                                    TemplateVariables.requiredBy(workflow.published().definition()),
                                    raw -> normalizer.normalize(raw, null, provider));
                            return sourceSize(c.sourceId())
                                    .chain(() -> sources.read(c.sourceId(), check))
                                    .invoke(() -> check.finish(provider.displayName()))
                                    .chain(() -> ConcurrencyLimit.check(calls, defaultLimit, org, c.maxConcurrency(), view))
                                    .chain(() -> store(c, view, check.rows()));
                        }));
    }

    /**
     * The stored object's size, whatever the store let through (a presigned S3 PUT cannot cap it):
     * an empty or oversized source is refused before a byte of it is read.
     */
    private Uni<Void> sourceSize(String key) {
        return store.metadata(key).map(found -> {
            long size = found.orElseThrow(() -> new DomainRuleViolation("Failed to access CSV file: " + key)).size();
            if (size < 1 || size > maxSourceBytes) {
                throw new DomainRuleViolation("The CSV file must be between 1 byte and " + maxSourceBytes
                        + " bytes (it is " + size + ")");
            }
            return null;
        });
    }

    private Uni<CampaignView> store(CreateCampaignCommand c, TelephonyConfigurationView view, int rows) {
        Instant now = clock.instant();
        Campaign created = Campaign.create(c.principal().organizationId(), c.principal().userId(), c.name().strip(),
                c.workflowId(), view.configuration().id(), c.sourceId(), c.retryConfig(), c.maxConcurrency(),
                c.scheduleConfig(), c.circuitBreaker(), now);
        CampaignLogEntry entry = new CampaignLogEntry(now, LogLevel.INFO, "created", "Campaign created with " + rows
                + " contacts", Map.of("source_rows", rows, "telephony_configuration_id", view.configuration().id()));
        Campaign withLog = new Campaign(null, created.organizationId(), created.name(), created.workflowId(),
                created.createdBy(), created.telephonyConfigurationId(), created.sourceType(), created.sourceId(),
                created.state(), created.totalRows(), 0, 0, created.retryConfig(), created.maxConcurrency(),
                created.scheduleConfig(), created.circuitBreaker(), null, null, now, null, null, List.of(entry));
        return campaigns.insert(withLog)
                .chain(stored -> campaigns.findView(stored.organizationId(), stored.id()))
                .map(found -> found.orElseThrow());
    }
}
