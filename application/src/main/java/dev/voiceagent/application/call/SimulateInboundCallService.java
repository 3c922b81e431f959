package dev.voiceagent.application.call;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.telephony.PhoneNumberNormalizer;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import java.util.Map;

@Singleton
public class SimulateInboundCallService implements SimulateInboundCallUseCase {

    static final String NOT_FOUND = "No active simulator number with this address in your organization";

    private final PhoneNumberRepository numbers;
    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberNormalizer normalizer;
    private final InboundCallSimulator simulator;

    public SimulateInboundCallService(PhoneNumberRepository numbers, TelephonyConfigurationRepository configurations,
            PhoneNumberNormalizer normalizer, InboundCallSimulator simulator) {
        this.numbers = numbers;
        this.configurations = configurations;
        this.normalizer = normalizer;
        this.simulator = simulator;
    }

    @Override
    public Uni<Map<String, Object>> ring(Principal principal, String to, String from) {
        long org = principal.organizationId();
        String address = normalizer.normalize(to, null, Provider.SIMULATOR);
        return numbers.findActiveByNormalized(address).chain(found -> {
            var number = found.stream().filter(n -> n.organizationId() == org).findFirst()
                    .orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND));
            return configurations.find(org, number.configurationId());
        }).chain(view -> {
            ProviderConfiguration configuration = view.map(v -> v.configuration().configuration())
                    .orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND));
            if (!(configuration instanceof ProviderConfiguration.Simulator simulated)) {
                throw new ResourceNotFoundException(NOT_FOUND);
            }
            return simulator.ring(simulated, address, from);
        });
    }
}
