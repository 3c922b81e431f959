package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;
import java.time.Clock;

@Singleton
public class UpdatePhoneNumberService implements UpdatePhoneNumberUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberRepository numbers;
    private final TrunkRepository trunks;
    private final KnownWorkflows workflows;
    private final Clock clock;

    public UpdatePhoneNumberService(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers,
            TrunkRepository trunks, KnownWorkflows workflows, Clock clock) {
        this.workflows = workflows;
        this.configurations = configurations;
        this.numbers = numbers;
        this.trunks = trunks;
        this.clock = clock;
    }

    @Override
    public Uni<PhoneNumberView> update(UpdatePhoneNumberCommand c) {
        long org = c.principal().organizationId();
        return PhoneNumbers.find(configurations, numbers, org, c.configurationId(), c.numberId())
                .call(n -> Trunks.checkOwnTrunk(trunks, org, c.configurationId(), c.clearTrunk() ? null : c.trunkId()))
                .call(n -> PhoneNumbers.checkInboundWorkflow(workflows, org, c.clearInboundWorkflow() ? null
                        : c.inboundWorkflowId()))
                .map(PhoneNumberView::number)
                .chain(n -> {
            boolean active = c.active() == null ? n.active() : c.active();
            Long inbound = c.clearInboundWorkflow() ? null
                    : c.inboundWorkflowId() != null ? c.inboundWorkflowId() : n.inboundWorkflowId();
            return numbers.update(new TelephonyNumber(n.id(), org, n.configurationId(), n.address(), n.normalized(),
                    c.countryCode() == null ? n.countryCode() : c.countryCode(), c.label() == null ? n.label() : c.label(),
                    inbound, c.clearTrunk() ? null : c.trunkId() != null ? c.trunkId() : n.trunkId(),
                    active, active && n.defaultCaller(),
                    c.extraMetadata() == null ? n.extraMetadata() : c.extraMetadata(), n.createdAt(), clock.instant()));
        });
    }
}
