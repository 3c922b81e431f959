package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;
import java.time.Clock;

/**
 * Normalizes the address for the configuration's provider and stores it (409 when the organization has
 * it). A caller number is accepted as the reference accepts it: a possible number for its country (a
 * number not in libphonenumber's assignment tables is a configuration warning, not a refusal).
 */
@Singleton
public class AddPhoneNumberService implements AddPhoneNumberUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberRepository numbers;
    private final TrunkRepository trunks;
    private final PhoneNumberNormalizer normalizer;
    private final KnownWorkflows workflows;
    private final Clock clock;

    public AddPhoneNumberService(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers,
            TrunkRepository trunks, KnownWorkflows workflows, PhoneNumberNormalizer normalizer, Clock clock) {
        this.workflows = workflows;
        this.configurations = configurations;
        this.numbers = numbers;
        this.trunks = trunks;
        this.normalizer = normalizer;
        this.clock = clock;
    }

    @Override
    public Uni<PhoneNumberView> add(AddPhoneNumberCommand c) {
        long org = c.principal().organizationId();
        return TelephonyConfigurations.find(configurations, org, c.configurationId())
                .call(view -> Trunks.checkOwnTrunk(trunks, org, c.configurationId(), c.trunkId()))
                .call(view -> PhoneNumbers.checkInboundWorkflow(workflows, org, c.inboundWorkflowId())).chain(view -> {
            String normalized = normalizer.normalizeCaller(c.address(), c.countryCode(), view.configuration().provider());
            var now = clock.instant();
            return numbers.insert(new TelephonyNumber(null, org, c.configurationId(), c.address().strip(), normalized,
                    c.countryCode(), c.label(), c.inboundWorkflowId(), c.trunkId(), c.active(), false, c.extraMetadata(), now, now));
        }).chain(stored -> c.defaultCaller()
                ? numbers.makeDefaultCaller(org, c.configurationId(), stored.number().id())
                        .chain(() -> PhoneNumbers.find(configurations, numbers, org, c.configurationId(), stored.number().id()))
                : Uni.createFrom().item(stored));
    }
}
