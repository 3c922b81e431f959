package dev.voiceagent.application.call;

import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.telephony.PhoneNumberNormalizer;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallOutcome;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.CallerSelection;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * A single outbound call: resolve a ready configuration, the number to call and the caller, reserve
 * a slot under the organization's limit (exact across replicas), create the run and place the call.
 */
public class InitiateCallService implements InitiateCallUseCase {

    static final String NO_CONFIGURATION = "No telephony configuration: configure telephony first";

    private final WorkflowRepository workflows;
    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberRepository numbers;
    private final PhoneNumberNormalizer normalizer;
    private final CallRepository calls;
    private final Map<dev.voiceagent.domain.telephony.Provider, CallGateway> gateways = new HashMap<>();
    private final Clock clock;
    private final RandomGenerator random;
    private final int defaultLimit;
    private final Duration staleAfter;

    public InitiateCallService(WorkflowRepository workflows, TelephonyConfigurationRepository configurations,
            PhoneNumberRepository numbers, PhoneNumberNormalizer normalizer, CallRepository calls,
            List<CallGateway> gateways, Clock clock, RandomGenerator random, int defaultLimit, Duration staleAfter) {
        this.workflows = workflows;
        this.configurations = configurations;
        this.numbers = numbers;
        this.normalizer = normalizer;
        this.calls = calls;
        gateways.forEach(g -> this.gateways.put(g.provider(), g));
        this.clock = clock;
        this.random = random;
        this.defaultLimit = Math.max(1, defaultLimit);
        this.staleAfter = staleAfter;
    }

    @Override
    public Uni<InitiatedCall> initiate(InitiateCallCommand c) {
        long org = c.principal().organizationId();
        if (c.phoneNumber() == null || c.phoneNumber().isBlank()) {
            return Uni.createFrom().failure(new DomainRuleViolation("phone_number is required"));
        }
        return workflows.find(org, c.workflowId())
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")))
                .chain(workflow -> resolveConfiguration(org, c.telephonyConfigurationId())
                        .chain(view -> numbers.list(org, view.configuration().id()).chain(list -> {
                            TelephonyConfiguration configuration = view.configuration();
                            String to = normalizer.normalize(c.phoneNumber(), null, configuration.provider());
                            var from = CallerSelection.choose(list.stream().map(n -> new CallerSelection.Number(n.id(),
                                    n.normalized(), n.active(), n.defaultCaller())).toList(), c.fromPhoneNumberId(), random);
                            if (c.fromPhoneNumberId() != null && from.isEmpty()) {
                                throw new DomainRuleViolation("from_phone_number_not_found");
                            }
                            return place(workflow, configuration, to,
                                    from.map(CallerSelection.Number::address).orElse(null));
                        })));
    }

    private Uni<TelephonyConfigurationView> resolveConfiguration(long org, Long requested) {
        if (requested != null) {
            return configurations.find(org, requested).map(found -> {
                TelephonyConfigurationView view = found.orElseThrow(
                        () -> new ResourceNotFoundException("Telephony configuration not found"));
                view.outboundBlockedReason().ifPresent(reason -> {
                    throw new DomainRuleViolation("'" + view.configuration().name() + "' is not ready for outbound calls. "
                            + reason);
                });
                return view;
            });
        }
        return configurations.list(org).map(views -> {
            List<TelephonyConfigurationView> candidates = views.stream().filter(v -> v.configuration().active())
                    .sorted(Comparator.comparing((TelephonyConfigurationView v) -> !v.configuration().defaultOutbound()))
                    .toList();
            if (candidates.isEmpty()) {
                throw new DomainRuleViolation(NO_CONFIGURATION);
            }
            return candidates.stream().filter(TelephonyConfigurationView::readyForOutbound).findFirst()
                    .orElseThrow(() -> new DomainRuleViolation("'" + candidates.getFirst().configuration().name()
                            + "' is not ready for outbound calls. " + candidates.getFirst().outboundBlockedReason().orElseThrow()));
        });
    }

    private Uni<InitiatedCall> place(Workflow workflow, TelephonyConfiguration configuration, String to, String from) {
        CallGateway gateway = gateways.get(configuration.provider());
        if (gateway == null) {
            throw new DomainRuleViolation(configuration.provider().displayName() + " has no outbound gateway");
        }
        Instant now = clock.instant();
        String name = "WR-TEL-OUT-%08d".formatted(random.nextInt(100_000_000));
        WorkflowRun started = WorkflowRun.start(workflow.organizationId(), workflow.id(), workflow.editable(), name,
                configuration.provider().wireName(), now);
        Map<String, Object> context = new HashMap<>(started.initialContext());
        context.put("phone_number", to);
        WorkflowRun run = new WorkflowRun(null, started.organizationId(), started.workflowId(), started.definitionId(),
                name, started.mode(), "outbound", started.state(), false, null, null, null, null, context, null, null,
                null, null, now);
        CallRecord call = new CallRecord(CallAttempt.dialing(workflow.organizationId(), 0, now), run,
                configuration.provider(), configuration.id(), from, to);
        long org = workflow.organizationId();
        return calls.organizationLimit(org)
                .chain(limit -> calls.reserve(org, limit.orElse(defaultLimit), staleAfter, run, call))
                .map(reserved -> reserved.orElseThrow(ConcurrencyLimitException::new))
                .chain(reserved -> gateway.originate(new OutboundCall(configuration.configuration(), reserved.run().id(),
                                from, to))
                        .call(callId -> calls.attachProviderCallId(reserved.attempt().id(), callId))
                        .map(callId -> new InitiatedCall(reserved.run().id(), name, callId))
                        .onFailure().call(failure -> failed(reserved)));
    }

    /** The provider refused: the call ends in error (freeing the slot) and the run says why. */
    private Uni<Boolean> failed(CallRecord reserved) {
        var outcome = reserved.attempt().report(CallStatus.ERROR, clock.instant(), 0);
        return calls.applyReport(reserved, outcome.attempt(), CallOutcome.applyTo(reserved.run(), outcome.attempt()));
    }
}
