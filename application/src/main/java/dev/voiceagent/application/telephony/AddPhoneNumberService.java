package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;
import java.time.Clock;

/** Normalizes the address for the configuration's provider and stores it (409 when the organization has it). */
public class AddPhoneNumberService implements AddPhoneNumberUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberRepository numbers;
    private final TrunkRepository trunks;
    private final PhoneNumberNormalizer normalizer;
    private final Clock clock;

    public AddPhoneNumberService(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers,
            TrunkRepository trunks, PhoneNumberNormalizer normalizer, Clock clock) {
        this.configurations = configurations;
        this.numbers = numbers;
        this.trunks = trunks;
        this.normalizer = normalizer;
        this.clock = clock;
    }

    @Override
    public Uni<TelephonyNumber> add(AddPhoneNumberCommand c) {
        long org = c.principal().organizationId();
        return TelephonyConfigurations.find(configurations, org, c.configurationId())
                .call(view -> Trunks.checkOwnTrunk(trunks, org, c.configurationId(), c.trunkId())).chain(view -> {
            String normalized = normalizer.normalize(c.address(), c.countryCode(), view.configuration().provider());
            var now = clock.instant();
            return numbers.insert(new TelephonyNumber(null, org, c.configurationId(), c.address().strip(), normalized,
                    c.countryCode(), c.label(), c.inboundWorkflowId(), c.trunkId(), c.active(), false, c.extraMetadata(), now, now));
        }).chain(stored -> c.defaultCaller()
                ? numbers.makeDefaultCaller(org, c.configurationId(), stored.id())
                        .chain(() -> PhoneNumbers.find(configurations, numbers, org, c.configurationId(), stored.id()))
                : Uni.createFrom().item(stored));
    }
}
