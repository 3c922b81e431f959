package dev.voiceagent.application.campaign;

import dev.voiceagent.application.source.ContactSourceReader;
import dev.voiceagent.application.dispatch.DispatchMetrics;
import dev.voiceagent.application.telephony.PhoneNumberNormalizer;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.CampaignState;
import dev.voiceagent.domain.campaign.Contact;
import dev.voiceagent.domain.campaign.LogLevel;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.telephony.Provider;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Streams the source into campaign_contacts in batches (flat memory whatever the size), skipping rows
 * that are already there, so an interrupted import can run again. Progress is logged every 100,000
 * rows; a failure fails the campaign with an import log entry.
 */
public class ImportContactsService implements ImportContactsUseCase {

    static final int BATCH = 1_000;
    static final int PROGRESS_EVERY = 100_000;
    private static final System.Logger LOG = System.getLogger(ImportContactsService.class.getName());

    private final CampaignRepository campaigns;
    private final ContactRepository contacts;
    private final ContactSourceReader sources;
    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberNormalizer normalizer;
    private final DispatchLedger ledger;
    private final Clock clock;
    private final Duration lease;
    private final DispatchMetrics metrics;

    public ImportContactsService(CampaignRepository campaigns, ContactRepository contacts, ContactSourceReader sources,
            TelephonyConfigurationRepository configurations, PhoneNumberNormalizer normalizer, DispatchLedger ledger,
            Clock clock, Duration lease, DispatchMetrics metrics) {
        this.metrics = metrics;
        this.ledger = ledger;
        this.lease = lease;
        this.campaigns = campaigns;
        this.contacts = contacts;
        this.sources = sources;
        this.configurations = configurations;
        this.normalizer = normalizer;
        this.clock = clock;
    }

    @Override
    public Uni<Boolean> importNext() {
        Instant now = clock.instant();
        return ledger.claimImport(now, now.plus(lease)).chain(claimed -> claimed.isEmpty() ? Uni.createFrom().item(false)
                : importContacts(claimed.get().organizationId(), claimed.get().campaignId()).replaceWith(true));
    }

    /** Loads a syncing campaign's contacts and moves it on (running, or completed when empty); the row count. */
    public Uni<Integer> importContacts(long org, long campaignId) {
        return Campaigns.find(campaigns, org, campaignId).chain(campaign -> provider(campaign)
                .map(provider -> new Sink(campaign, provider))
                .call(sink -> sources.forEachRow(campaign.sourceId(), sink))
                .chain(sink -> contacts.count(org, campaignId).chain(count -> Campaigns.transition(campaigns, org,
                        campaignId, current -> current.contactsLoaded(count.intValue(), sink.invalidCount, sink.invalidRows,
                                clock.instant())).replaceWith(count.intValue())))
                .onFailure().call(failure -> Campaigns.find(campaigns, org, campaignId)
                        .chain(current -> current.state().isTerminal() ? Uni.createFrom().voidItem()
                                : campaigns.applyTransition(current, current.fail(clock.instant(), "source_sync_failed",
                                        "Loading the contacts failed: " + failure.getMessage(),
                                        Map.of("error", String.valueOf(failure.getMessage())))).replaceWithVoid())
                        .onFailure().recoverWithNull()));
    }

    private Uni<Provider> provider(Campaign campaign) {
        if (campaign.telephonyConfigurationId() == null) {
            return Uni.createFrom().item(Provider.SIMULATOR);
        }
        return configurations.find(campaign.organizationId(), campaign.telephonyConfigurationId())
                .map(found -> found.map(v -> v.configuration().provider()).orElseThrow(
                        () -> new DomainRuleViolation("The campaign's telephony configuration no longer exists")));
    }

    /** Runs on the reader's worker thread: batches rows and waits for each batch to be stored. */
    private final class Sink implements ContactSourceReader.RowSink {
        private final Campaign campaign;
        private final Provider provider;
        private final List<Contact> batch = new ArrayList<>(BATCH);
        private List<String> header = List.of();
        private int phone = -1;
        private int timezone = -1;
        private int rowNumber = 1;
        private int imported;
        private final List<Integer> invalidRows = new ArrayList<>();
        private int invalidCount;

        Sink(Campaign campaign, Provider provider) {
            this.campaign = campaign;
            this.provider = provider;
        }

        @Override
        public void header(List<String> columns) {
            header = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                String name = columns.get(i).strip().replace("\uFEFF", "").toLowerCase(Locale.ROOT);
                header.add(name);
                if (name.equals("phone_number") && phone < 0) {
                    phone = i;
                } else if (name.equals("timezone") && timezone < 0) {
                    timezone = i;
                }
            }
        }

        @Override
        public void row(List<String> values) {
            rowNumber++;
            if (phone < 0 || phone >= values.size() || values.get(phone).isBlank()) {
                return;
            }
            String number;
            try {
                number = normalizer.normalize(values.get(phone), null, provider);
            } catch (DomainRuleViolation e) {
                // validated at create: only a file changed since gets here; skipped, and said in the log
                if (invalidRows.size() < 5) {
                    invalidRows.add(rowNumber);
                }
                invalidCount++;
                return;
            }
            Map<String, Object> context = Contact.contextOf(header, values);
            context.put("phone_number", number);
            String zone = timezone >= 0 && timezone < values.size() && !values.get(timezone).isBlank()
                    ? values.get(timezone).strip() : null;
            batch.add(new Contact(campaign.organizationId(), campaign.id(), rowNumber, number, zone, context));
            if (batch.size() == BATCH) {
                flush();
            }
        }

        @Override
        public void end() {
            flush();
        }

        void flush() {
            if (batch.isEmpty()) {
                return;
            }
            contacts.insertBatch(List.copyOf(batch)).await().atMost(Duration.ofMinutes(1));
            ledger.renewImport(new DispatchLedger.CampaignKey(campaign.organizationId(), campaign.id()),
                    clock.instant().plus(lease)).await().atMost(Duration.ofMinutes(1));
            int before = imported;
            imported += batch.size();
            metrics.rowsImported(batch.size());
            batch.clear();
            if (imported / PROGRESS_EVERY > before / PROGRESS_EVERY) { // crossed a multiple of PROGRESS_EVERY
                LOG.log(System.Logger.Level.INFO, "campaign {0}: {1} contacts imported", campaign.id(), imported);
            }
        }
    }
}
