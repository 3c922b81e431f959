package dev.voiceagent.application.call;

import dev.voiceagent.application.dispatch.DispatchMetrics;
import dev.voiceagent.domain.telephony.Provider;
import jakarta.inject.Singleton;
import dev.voiceagent.application.dispatch.SlotListener;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.campaign.RetryPolicy;
import dev.voiceagent.domain.telephony.CallStatus;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Applies a verified provider report to the call of the run it names. Idempotent: duplicates, late
 * and out-of-order reports are acknowledged without change. The report is recorded as applied only
 * after the change commits.
 */
@Singleton
public class ProcessCallReportService implements ProcessCallReportUseCase, AuthenticateCallReportUseCase {

    static final int ATTEMPTS = 3;

    static final String BAD_SIGNATURE = "Invalid signature";

    private final CallRepository calls;
    private final CallChanges changes;
    private final TelephonyConfigurationRepository configurations;
    private final RetryConfigs campaigns;
    private final Clock clock;
    private final SlotListener slots;
    private final DispatchMetrics metrics;

    public ProcessCallReportService(CallRepository calls, CallChanges changes,
            TelephonyConfigurationRepository configurations,
            RetryConfigs campaigns, Clock clock, SlotListener slots, DispatchMetrics metrics) {
        this.metrics = metrics;
        this.slots = slots;
        this.calls = calls;
        this.changes = changes;
        this.configurations = configurations;
        this.campaigns = campaigns;
        this.clock = clock;
    }

    @Override
    public Uni<String> process(CallReport report, SignatureCheck signature) {
        return calls.findByRun(report.runId()).chain(found -> {
            CallRecord call = found.filter(c -> c.provider() == report.provider())
                    .orElseThrow(() -> new ResourceNotFoundException("No such call"));
            return verified(call, signature)
                    .chain(() -> calls.alreadyApplied(report.provider().wireName(), report.dedupKey()))
                    .chain(seen -> seen ? Uni.createFrom().item("duplicate") : apply(report, found, ATTEMPTS));
        });
    }

    @Override
    public Uni<Void> authenticate(long runId, Provider provider, SignatureCheck signature) {
        return calls.findByRun(runId).chain(found -> verified(found.filter(c -> c.provider() == provider)
                .orElseThrow(() -> new ResourceNotFoundException("No such call")), signature));
    }

    /** Fails closed: no configuration (or no secret in it) means no change. */
    private Uni<Void> verified(CallRecord call, SignatureCheck signature) {
        if (signature == SignatureCheck.VERIFIED_BY_ADAPTER) {
            return Uni.createFrom().voidItem();
        }
        if (call.configurationId() == null) {
            return Uni.createFrom().failure(new ForbiddenException(BAD_SIGNATURE));
        }
        return configurations.find(call.attempt().organizationId(), call.configurationId()).map(view -> {
            if (view.isEmpty() || !signature.verify(view.get().configuration().configuration())) {
                throw new ForbiddenException(BAD_SIGNATURE);
            }
            return null;
        });
    }

    /**
     * A campaign call's final outcome decides its contact: retried after the delay when the retry
     * policy says so, else finished. Null for single calls and while the call goes on.
     */
    private Uni<ContactEffect> contactEffect(CallRecord call, CallAttempt after) {
        if (call.campaign() == null || !after.status().isFinal()) {
            return Uni.createFrom().nullItem();
        }
        return campaigns.retryConfig(after.organizationId(), call.campaign().campaignId()).map(config -> {
            var retry = config.flatMap(c -> RetryPolicy.retryAfter(c, after.status(), call.campaign().attemptNumber()));
            Instant now = clock.instant();
            return new ContactEffect(call.campaign(), retry.map(now::plus).orElse(null),
                    after.status() == CallStatus.COMPLETED, null, null);
        });
    }

    /** {@code read} is the call as last read (fresh on the first attempt; read again after a lost race). */
    private Uni<String> apply(CallReport report, Optional<CallRecord> read, int attemptsLeft) {
        Uni<Optional<CallRecord>> current = read != null ? Uni.createFrom().item(read)
                : calls.findByRun(report.runId());
        return current.chain(found -> {
            CallRecord call = found.filter(c -> c.provider() == report.provider())
                    .filter(c -> report.names(c.attempt().providerCallId()))
                    .orElseThrow(() -> new ResourceNotFoundException("No such call"));
            Uni<Void> renamed = report.renames(call.attempt().providerCallId())
                    ? Uni.createFrom().deferred(() -> calls.attachProviderCallId(call.attempt().id(),
                            report.providerCallId()))
                    : Uni.createFrom().voidItem(); // once the report's change is committed (or it changed nothing)
            CallAttempt.Outcome outcome = call.attempt().report(report.status(), clock.instant(), report.durationSeconds());
            if (outcome instanceof CallAttempt.Ignored ignored) {
                return renamed.replaceWith("ignored: " + ignored.reason());
            }
            return contactEffect(call, outcome.attempt())
                    .chain(effect -> changes.commit(call, outcome.attempt(), effect))
                    .chain(applied -> {
                        if (!applied) {
                            // another report changed the call meanwhile: decide again on fresh state
                            return attemptsLeft > 1 ? apply(report, null, attemptsLeft - 1)
                                    : Uni.createFrom().failure(new IllegalStateException("call changed concurrently"));
                        }
                        if (outcome.attempt().status().isFinal()) {
                            metrics.outcome(outcome.attempt().status());
                        }
                        if (call.campaign() != null && outcome.attempt().status().isFinal()) {
                            slots.slotFreed(call.attempt().organizationId());
                        }
                        return renamed.chain(() -> calls.markApplied(report.provider().wireName(), report.dedupKey(),
                                call.attempt().id())).replaceWith("applied: " + report.status().wireName());
                    });
        });
    }
}
