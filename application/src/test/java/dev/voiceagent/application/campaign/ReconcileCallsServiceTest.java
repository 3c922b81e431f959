package dev.voiceagent.application.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallReport;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
import io.smallrye.mutiny.Uni;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Each way an expired attempt is settled: through the provider's status, or closed as an error. */
class ReconcileCallsServiceTest {

    private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");

    private final List<CallReport> applied = new ArrayList<>();
    private final Map<String, Object> providerAnswers = new HashMap<>();

    private static <T> T only(Class<T> type, Map<String, Function<Object[], Object>> methods) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            var body = methods.get(method.getName());
            if (body == null) {
                throw new UnsupportedOperationException(method.getName());
            }
            return body.apply(args);
        }));
    }

    private int reconcile(DispatchLedger.ExpiredAttempt... expired) {
        DispatchLedger ledger = only(DispatchLedger.class,
                Map.of("claimExpiredLeases", args -> Uni.createFrom().item(List.of(expired))));
        TelephonyConfigurationView view = TelephonyConfigurationView.of(new TelephonyConfiguration(9L, 1, "Sim",
                ProviderConfiguration.Simulator.DEFAULT, true, true, null, null, NOW, NOW), 1);
        TelephonyConfigurationRepository configurations = only(TelephonyConfigurationRepository.class,
                Map.of("find", args -> Uni.createFrom().item(Optional.of(view))));
        CallGateway gateway = only(CallGateway.class, Map.of(
                "provider", args -> Provider.SIMULATOR,
                "fetchStatus", args -> {
                    Object answer = providerAnswers.get((String) args[1]);
                    return answer instanceof RuntimeException e ? Uni.createFrom().failure(e)
                            : Uni.createFrom().item((Optional<?>) answer);
                }));
        ProcessCallReportUseCase reports = (report, signature) -> {
            applied.add(report);
            return Uni.createFrom().item("applied");
        };
        return new ReconcileCallsService(ledger, configurations, reports, List.of(gateway),
                Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofMinutes(2), Duration.ofHours(2))
                .reconcile().await().indefinitely();
    }

    private static DispatchLedger.ExpiredAttempt attempt(long id, String providerCallId, Duration age) {
        return new DispatchLedger.ExpiredAttempt(id, 1, 100 + id, Provider.SIMULATOR, 9L, providerCallId, NOW.minus(age));
    }

    @Test
    void theProvidersFinalStatusIsAppliedAndALiveCallIsLeftAlone() {
        providerAnswers.put("done", Optional.of(CallStatus.BUSY));
        providerAnswers.put("live", Optional.of(CallStatus.IN_PROGRESS));
        assertThat(reconcile(attempt(1, "done", Duration.ofMinutes(3)), attempt(2, "live", Duration.ofMinutes(3))))
                .isEqualTo(2);
        assertThat(applied).singleElement().satisfies(r -> {
            assertThat(r.runId()).isEqualTo(101);
            assertThat(r.status()).isEqualTo(CallStatus.BUSY);
            assertThat(r.dedupKey()).isEqualTo("reconcile:1:busy");
        });
    }

    @Test
    void aCallThatNeverReachedTheProviderOrThatItDoesNotKnowIsClosedAsAnError() {
        providerAnswers.put("unknown", Optional.empty());
        reconcile(attempt(1, null, Duration.ofMinutes(3)), attempt(2, "unknown", Duration.ofMinutes(3)));
        assertThat(applied).extracting(CallReport::status).containsExactly(CallStatus.ERROR, CallStatus.ERROR);
    }

    @Test
    void aProviderOutageIsRetriedUntilTheCallIsStaleThenClosed() {
        providerAnswers.put("young", new IllegalStateException("503"));
        providerAnswers.put("old", new IllegalStateException("503"));
        reconcile(attempt(1, "young", Duration.ofMinutes(5)), attempt(2, "old", Duration.ofHours(3)));
        assertThat(applied).singleElement().satisfies(r -> {
            assertThat(r.runId()).isEqualTo(102);
            assertThat(r.status()).isEqualTo(CallStatus.ERROR);
        });
    }
}
