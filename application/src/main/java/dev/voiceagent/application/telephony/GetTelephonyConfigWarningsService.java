package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The organization's telephony warnings from two reads (its configurations, all its numbers). */
@Singleton
public class GetTelephonyConfigWarningsService implements GetTelephonyConfigWarningsUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberRepository numbers;
    private final PhoneNumberNormalizer normalizer;

    public GetTelephonyConfigWarningsService(TelephonyConfigurationRepository configurations,
            PhoneNumberRepository numbers, PhoneNumberNormalizer normalizer) {
        this.configurations = configurations;
        this.numbers = numbers;
        this.normalizer = normalizer;
    }

    @Override
    public Uni<TelephonyConfigWarnings> warnings(Principal principal) {
        long org = principal.organizationId();
        return Uni.combine().all().unis(configurations.list(org), numbers.listAll(org)).with((views, all) -> {
            List<TelephonyConfigWarnings.Warning> warnings = new ArrayList<>();
            if (views.isEmpty()) {
                warnings.add(new TelephonyConfigWarnings.Warning(null, null, null,
                        "No telephony configuration: add one to place calls"));
            }
            long telnyx = 0;
            long vonage = 0;
            Map<Long, String> names = new HashMap<>();
            for (TelephonyConfigurationView v : views) {
                var c = v.configuration();
                names.put(c.id(), c.name());
                if (c.configuration() instanceof ProviderConfiguration.Telnyx t && t.webhookPublicKey() == null) {
                    telnyx++;
                }
                if (c.configuration() instanceof ProviderConfiguration.Vonage n && n.signatureSecret() == null) {
                    vonage++;
                }
                v.outboundBlockedReason().ifPresent(reason -> warnings.add(
                        new TelephonyConfigWarnings.Warning(c.id(), c.name(), null, reason)));
            }
            for (PhoneNumberView view : all) {
                TelephonyNumber n = view.number();
                if (!normalizer.assigned(n.normalized())) {
                    warnings.add(new TelephonyConfigWarnings.Warning(n.configurationId(), names.get(n.configurationId()),
                            n.id(), n.normalized() + " is not a number libphonenumber knows as assigned: check it for"
                                    + " a typo (calls from it may be refused by the carrier)"));
                }
            }
            return new TelephonyConfigWarnings(telnyx, vonage, warnings);
        });
    }
}
