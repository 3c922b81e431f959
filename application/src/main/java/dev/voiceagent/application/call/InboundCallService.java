package dev.voiceagent.application.call;

import dev.voiceagent.application.call.InboundCallUseCase.Answer.Reject;
import dev.voiceagent.application.call.InboundCallUseCase.Answer.Stream;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.telephony.PhoneNumberNormalizer;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.ExternalPbxCalls;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import dev.voiceagent.domain.telephony.TelephonyNumber;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.domain.workflow.WorkflowStatus;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Answers inbound calls. The number decides everything: its organization, its provider account (whose key
 * must have signed the webhook: fail closed), the workflow that answers it. A call that cannot be taken is
 * refused with the provider's own instruction, and why is logged; none of it is a 5xx the provider would retry.
 */
public class InboundCallService implements InboundCallUseCase, FindCallRunUseCase {

    private static final System.Logger LOG = System.getLogger(InboundCallService.class.getName());
    static final String BAD_SIGNATURE = "Invalid signature";

    private final PhoneNumberRepository numbers;
    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberNormalizer normalizer;
    private final WorkflowRepository workflows;
    private final CallRepository calls;
    private final VoiceRuntime runtime;
    private final Clock clock;
    private final RandomGenerator random;
    private final int defaultLimit;
    private final Duration staleAfter;
    private final CreditGate credits;

    public InboundCallService(PhoneNumberRepository numbers, TelephonyConfigurationRepository configurations,
            PhoneNumberNormalizer normalizer, WorkflowRepository workflows, CallRepository calls, VoiceRuntime runtime,
            Clock clock, RandomGenerator random, int defaultLimit, Duration staleAfter, CreditGate credits) {
        this.credits = credits;
        this.numbers = numbers;
        this.configurations = configurations;
        this.normalizer = normalizer;
        this.workflows = workflows;
        this.calls = calls;
        this.runtime = runtime;
        this.clock = clock;
        this.random = random;
        this.defaultLimit = Math.max(1, defaultLimit);
        this.staleAfter = staleAfter;
    }

    private record Candidate(TelephonyNumber number, TelephonyConfigurationView configuration) {
    }

    @Override
    public Uni<Answer> answer(InboundCall call) {
        String called;
        try {
            called = normalizer.normalize(call.calledNumber(), null, call.provider());
        } catch (RuntimeException notANumber) {
            called = call.calledNumber() == null ? "" : call.calledNumber().strip();
        }
        String address = called;
        return numbers.findActiveByNormalized(address).onItem().transformToMulti(found -> Multi.createFrom()
                        .iterable(found))
                .onItem().transformToUniAndConcatenate(number -> configurations.find(number.organizationId(),
                        number.configurationId()).map(view -> view.map(v -> new Candidate(number, v))))
                .collect().asList().chain(candidates -> {
                    List<Candidate> ofProvider = candidates.stream().flatMap(Optional::stream)
                            .filter(c -> c.configuration().configuration().provider() == call.provider()).toList();
                    if (ofProvider.isEmpty()) {
                        LOG.log(System.Logger.Level.INFO, "inbound " + call.provider().wireName() + " call to unknown"
                                + " number " + address + " refused");
                        return Uni.createFrom().item((Answer) new Reject("unknown_number", null));
                    }
                    Candidate match = ofProvider.stream().filter(c -> call.signature().verify(c.configuration()
                            .configuration().configuration())).findFirst()
                            .orElseThrow(() -> new ForbiddenException(BAD_SIGNATURE));
                    return take(call, match);
                });
    }

    @Override
    public Uni<Optional<Long>> runOfCall(Provider provider, String providerCallId) {
        return providerCallId == null || providerCallId.isBlank() ? Uni.createFrom().item(Optional.empty())
                : calls.runIdOfProviderCall(provider, providerCallId);
    }

    private Uni<Answer> take(InboundCall call, Candidate match) {
        TelephonyNumber number = match.number();
        var configuration = match.configuration().configuration();
        long org = number.organizationId();
        if (number.inboundWorkflowId() == null) {
            return refuse("no_inbound_workflow", configuration.configuration(), org, number);
        }
        return workflows.find(org, number.inboundWorkflowId()).chain(found -> {
            if (found.isEmpty() || found.get().status() != WorkflowStatus.ACTIVE) {
                return refuse("workflow_unavailable", configuration.configuration(), org, number);
            }
            Workflow workflow = found.get();
            if (runtime.streamUrl(org, workflow.id(), 0).isEmpty()) {
                return refuse("no_voice_runtime", configuration.configuration(), org, number);
            }
            return credits.exhausted(org).chain(exhausted -> exhausted
                    ? refuse("no_credits", configuration.configuration(), org, number)
                    : withDetails(call, match, workflow));
        });
    }

    private Uni<Answer> withDetails(InboundCall call, Candidate match, Workflow workflow) {
        TelephonyNumber number = match.number();
        long org = number.organizationId();
        Uni<Map<String, Object>> details = call.details() == null ? Uni.createFrom().item(Map.of())
                : call.details().read(org, ExternalPbxCalls.leadHeaders(workflow.published().configurations()))
                        .onFailure().invoke(f -> LOG.log(System.Logger.Level.WARNING, "inbound call to "
                                + number.normalized() + ": the caller's details not read: " + f.getMessage()))
                        .onFailure().recoverWithItem(Map.of());
        return details.chain(extra -> take(call, match, workflow, extra));
    }

    /** The run created and a slot under the organization's limit reserved (or the call refused as busy). */
    private Uni<Answer> take(InboundCall call, Candidate match, Workflow workflow, Map<String, Object> extra) {
        TelephonyNumber number = match.number();
        var configuration = match.configuration().configuration();
        long org = number.organizationId();
        Instant now = clock.instant();
        WorkflowRun run = inboundRun(workflow, call, number, now, extra);
        CallRecord record = new CallRecord(CallAttempt.dialing(org, 0, now), run,
                call.provider(), configuration.id(), call.callerNumber(), number.normalized());
        return calls.organizationLimit(org)
                .chain(limit -> calls.reserve(org, limit.orElse(defaultLimit), staleAfter, run, record))
                .chain(reserved -> {
                    if (reserved.isEmpty()) {
                        return refuse("busy", configuration.configuration(), org, number);
                    }
                    CallRecord stored = reserved.get();
                    long runId = stored.run().id();
                    String url = runtime.streamUrl(org, workflow.id(), runId).orElseThrow();
                    Uni<Void> attached = call.providerCallId() == null ? Uni.createFrom().voidItem()
                            : calls.attachProviderCallId(stored.attempt().id(), call.providerCallId());
                    return attached.replaceWith((Answer) new Stream(runId, url, configuration.configuration(), org,
                            workflow.id()));
                });
    }

    private static Uni<Answer> refuse(String reason, ProviderConfiguration configuration,
            long org, TelephonyNumber number) {
        LOG.log(System.Logger.Level.INFO, "inbound call to " + number.normalized() + " (organization " + org
                + ") refused: " + reason);
        return Uni.createFrom().item(new Reject(reason, configuration));
    }

    private WorkflowRun inboundRun(Workflow workflow, InboundCall call, TelephonyNumber number, Instant now,
            Map<String, Object> extra) {
        String name = "WR-TEL-IN-%08d".formatted(random.nextInt(100_000_000));
        WorkflowRun started = WorkflowRun.start(workflow.organizationId(), workflow.id(), workflow.published(), name,
                call.provider().wireName(), now);
        Map<String, Object> context = new LinkedHashMap<>(started.initialContext() == null ? Map.of()
                : started.initialContext());
        context.put("caller_number", call.callerNumber());
        context.put("called_number", number.normalized());
        context.put("phone_number", call.callerNumber());
        context.put("provider", call.provider().wireName());
        context.put("direction", "inbound");
        extra.forEach(context::putIfAbsent);
        return WorkflowRun.initialized(started.organizationId(), started.workflowId(), started.definitionId(), name,
                started.mode(), "inbound", context, now);
    }
}
