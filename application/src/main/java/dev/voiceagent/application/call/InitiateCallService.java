package dev.voiceagent.application.call;

import dev.voiceagent.application.dnc.DoNotCallUseCases;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.telephony.OutboundConfigurations;
import dev.voiceagent.application.telephony.PhoneNumberNormalizer;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.application.organization.OrganizationPreferencesRepository;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.CallerSelection;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
import dev.voiceagent.domain.voice.VoicemailDetection;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * A single outbound call: resolve a ready configuration, the number to call and the caller, reserve
 * a slot under the organization's limit (exact across replicas), create the run and place the call.
 */
public class InitiateCallService implements InitiateCallUseCase {

    private final WorkflowRepository workflows;
    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberRepository numbers;
    private final PhoneNumberNormalizer normalizer;
    private final CallRepository calls;
    private final CallChanges changes;
    private final WorkflowRunRepository runs;
    private final OrganizationPreferencesRepository preferences;
    private final Map<Provider, CallGateway> gateways = new HashMap<>();
    private final Clock clock;
    private final RandomGenerator random;
    private final int defaultLimit;
    private final Duration staleAfter;
    private final CreditGate credits;
    private final DoNotCallUseCases.RequireCallableUseCase requireCallable;

    public InitiateCallService(WorkflowRepository workflows, TelephonyConfigurationRepository configurations,
            PhoneNumberRepository numbers, PhoneNumberNormalizer normalizer, CallRepository calls,
            CallChanges changes,
            WorkflowRunRepository runs, OrganizationPreferencesRepository preferences, List<CallGateway> gateways, Clock clock, RandomGenerator random, int defaultLimit, Duration staleAfter,
            CreditGate credits, DoNotCallUseCases.RequireCallableUseCase requireCallable) {
        this.credits = credits;
        this.requireCallable = requireCallable;
        this.workflows = workflows;
        this.configurations = configurations;
        this.numbers = numbers;
        this.normalizer = normalizer;
        this.calls = calls;
        this.changes = changes;
        this.runs = runs;
        this.preferences = preferences;
        gateways.forEach(g -> this.gateways.put(g.provider(), g));
        this.clock = clock;
        this.random = random;
        this.defaultLimit = Math.max(1, defaultLimit);
        this.staleAfter = staleAfter;
    }

    @Override
    public Uni<InitiatedCall> initiate(InitiateCallCommand c) {
        long org = c.principal().organizationId();
        return workflows.find(org, c.workflowId())
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")))
                .call(() -> credits.requireCredit(org)) // after the 404, before any other precondition
                .chain(workflow -> existingRun(org, c)
                        .chain(existing -> numberToCall(org, c.phoneNumber()).chain(number ->
                        OutboundConfigurations.resolve(configurations, org, c.telephonyConfigurationId())
                        .chain(view -> numbers.list(org, view.configuration().id()).chain(list -> {
                            TelephonyConfiguration configuration = view.configuration();
                            String to = normalizer.normalize(number, null, configuration.provider());
                            var from = CallerSelection.choose(list.stream().map(v -> v.number()).map(n ->
                                    new CallerSelection.Number(n.id(), n.normalized(), n.active(), n.defaultCaller()))
                                    .toList(), c.fromPhoneNumberId(), random);
                            if (c.fromPhoneNumberId() != null && from.isEmpty()) {
                                throw new DomainRuleViolation("from_phone_number_not_found");
                            }
                            // fail closed: a check that cannot run fails the call
                            return requireCallable.requireCallable(org, to).chain(() -> place(workflow, existing, configuration,
                                    to, from.map(CallerSelection.Number::address).orElse(null), c));
                        })))));
    }

    /** The run to reuse, which must be of this workflow; else a new one is made. */
    private Uni<WorkflowRun> existingRun(long org, InitiateCallCommand c) {
        if (c.workflowRunId() == null) {
            return Uni.createFrom().nullItem();
        }
        return runs.find(org, c.workflowId(), c.workflowRunId()).map(found -> found.orElseThrow(
                () -> new DomainRuleViolation("workflow_run_workflow_mismatch: run " + c.workflowRunId()
                        + " is not a run of workflow " + c.workflowId())));
    }

    /** The number asked for, else the organization's test number. */
    private Uni<String> numberToCall(long org, String requested) {
        if (requested != null && !requested.isBlank()) {
            return Uni.createFrom().item(requested);
        }
        return preferences.get(org).map(p -> {
            if (p.testPhoneNumber() == null) {
                throw new DomainRuleViolation("phone_number is required (the organization has no test phone number)");
            }
            return p.testPhoneNumber();
        });
    }

    private Uni<InitiatedCall> place(Workflow workflow, WorkflowRun existing, TelephonyConfiguration configuration,
            String to, String from, InitiateCallCommand command) {
        CallGateway gateway = gateways.get(configuration.provider());
        if (gateway == null) {
            throw new DomainRuleViolation(configuration.provider().displayName() + " has no outbound gateway");
        }
        Instant now = clock.instant();
        WorkflowRun run = existing != null ? existing : newRun(workflow, configuration, to, now, command);
        String name = run.name();
        CallRecord call = new CallRecord(CallAttempt.dialing(workflow.organizationId(), 0, now), run,
                configuration.provider(), configuration.id(), from, to);
        long org = workflow.organizationId();
        return calls.organizationLimit(org)
                .chain(limit -> calls.reserve(org, limit.orElse(defaultLimit), staleAfter, run, call))
                .map(reserved -> reserved.orElseThrow(ConcurrencyLimitException::new))
                .chain(reserved -> gateway.originate(new OutboundCall(configuration.configuration(), reserved.run().id(),
                                from, to, org, workflow.id(), VoicemailDetection.of(
                                        (command.published() ? workflow.published() : workflow.editable())
                                                .configurations()).enabled()))
                        .call(callId -> calls.attachProviderCallId(reserved.attempt().id(), callId))
                        .map(callId -> new InitiatedCall(reserved.run().id(), name, callId))
                        .onFailure().call(failure -> failed(reserved)));
    }

    private WorkflowRun newRun(Workflow workflow, TelephonyConfiguration configuration, String to, Instant now,
            InitiateCallCommand command) {
        String name = command.runName() != null ? command.runName()
                : "WR-TEL-OUT-%08d".formatted(random.nextInt(100_000_000));
        WorkflowRun started = WorkflowRun.start(workflow.organizationId(), workflow.id(),
                command.published() ? workflow.published() : workflow.editable(), name,
                configuration.provider().wireName(), now);
        Map<String, Object> context = new HashMap<>(started.initialContext());
        context.putAll(command.initialContext());
        context.put("phone_number", to);
        return WorkflowRun.initialized(started.organizationId(), started.workflowId(), started.definitionId(), name,
                started.mode(), "outbound", context, now);
    }

    /** The provider refused: the call ends in error (freeing the slot) and the run says why. */
    private Uni<Boolean> failed(CallRecord reserved) {
        var outcome = reserved.attempt().report(CallStatus.ERROR, clock.instant(), 0);
        return changes.commit(reserved, outcome.attempt(), null);
    }
}
