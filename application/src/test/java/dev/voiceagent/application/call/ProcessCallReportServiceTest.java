package dev.voiceagent.application.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.dispatch.DispatchMetrics;
import dev.voiceagent.application.dispatch.SlotListener;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.application.workflow.RunCompletions;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.campaign.RetryConfig;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A provider's reports applied to a call without Quarkus or a database: each applied once, duplicates and late or
 * out-of-order reports acknowledged without change, a report that lost a race decided again on fresh state, an
 * unsigned one refused before anything is read of the call, and a campaign call's final outcome deciding its
 * contact and freeing its slot.
 */
class ProcessCallReportServiceTest {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
    private static final Instant NOW = T0.plusSeconds(60);
    private static final long RUN = 70;

    /** The calls by run, written only if still as the writer read them (the repository's promise). */
    private final Map<Long, CallRecord> calls = new HashMap<>();
    private final Set<String> applied = new HashSet<>();
    private final List<List<WebhookEvent>> events = new ArrayList<>();
    private final List<ContactEffect> effects = new ArrayList<>();
    private final List<Long> slotsFreed = new ArrayList<>();
    private final List<String> renamedTo = new ArrayList<>();
    /** Run before the next write: a concurrent report that gets there first. */
    private Runnable concurrentWriter;

    private ProcessCallReportService service() {
        CallRepository repository = (CallRepository) Proxy.newProxyInstance(CallRepository.class.getClassLoader(),
                new Class<?>[] {CallRepository.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "findByRun" -> Uni.createFrom().item(Optional.ofNullable(calls.get((Long) args[0])));
                    case "alreadyApplied" -> Uni.createFrom().item(applied.contains(args[0] + ":" + args[1]));
                    case "attachProviderCallId" -> {
                        renamedTo.add((String) args[1]);
                        CallRecord c = calls.get(RUN);
                        calls.put(RUN, new CallRecord(c.attempt().withProviderCallId((String) args[1]), c.run(),
                                c.provider(), c.configurationId(), c.fromNumber(), c.toNumber(), c.campaign()));
                        yield Uni.createFrom().voidItem();
                    }
                    case "markApplied" -> {
                        applied.add(args[0] + ":" + args[1]);
                        yield Uni.createFrom().voidItem();
                    }
                    case "applyReport" -> {
                        if (concurrentWriter != null) {
                            Runnable writer = concurrentWriter;
                            concurrentWriter = null;
                            writer.run();
                        }
                        CallRecord before = (CallRecord) args[0];
                        CallRecord current = calls.get(before.run().id());
                        if (current.attempt().status() != before.attempt().status()) {
                            yield Uni.createFrom().item(false);
                        }
                        CallAttempt after = (CallAttempt) args[1];
                        calls.put(before.run().id(), new CallRecord(after, (WorkflowRun) args[2], before.provider(),
                                before.configurationId(), before.fromNumber(), before.toNumber(), before.campaign()));
                        effects.add((ContactEffect) args[3]);
                        @SuppressWarnings("unchecked")
                        List<WebhookEvent> written = (List<WebhookEvent>) args[4];
                        events.add(written);
                        yield Uni.createFrom().item(true);
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        WorkflowRepository workflows = (WorkflowRepository) Proxy.newProxyInstance(
                WorkflowRepository.class.getClassLoader(), new Class<?>[] {WorkflowRepository.class},
                (proxy, method, args) -> Uni.createFrom().item(Optional.empty()));
        TelephonyConfigurationView view = TelephonyConfigurationView.of(new TelephonyConfiguration(4L, 1, "Sim",
                ProviderConfiguration.Simulator.DEFAULT, true, true, null, null, T0, T0), 1);
        TelephonyConfigurationRepository configurations = (TelephonyConfigurationRepository) Proxy.newProxyInstance(
                TelephonyConfigurationRepository.class.getClassLoader(),
                new Class<?>[] {TelephonyConfigurationRepository.class},
                (proxy, method, args) -> Uni.createFrom().item(Optional.of(view)));
        RetryConfigs retries = (org, campaign) -> Uni.createFrom().item(Optional.of(RetryConfig.DEFAULT));
        SlotListener slots = slotsFreed::add;
        return new ProcessCallReportService(repository, new CallChanges(repository, new RunCompletions(workflows)),
                configurations, retries, Clock.fixed(NOW, ZoneOffset.UTC), slots, DispatchMetrics.NONE);
    }

    private void call(CallStatus status, CampaignAttempt campaign) {
        WorkflowRun run = new WorkflowRun(RUN, 1, 2, 3, "WR-1", "simulator", "outbound", "initialized", false, null,
                null, null, null, Map.of(), null, null, null, campaign == null ? null : campaign.campaignId(), T0);
        calls.put(RUN, new CallRecord(new CallAttempt(5L, 1, RUN, "sim-70", status, T0,
                status == CallStatus.IN_PROGRESS ? T0.plusSeconds(5) : null, null, null), run, Provider.SIMULATOR, 4L,
                "+15550100", "+15550199", campaign));
    }

    private String report(ProcessCallReportService service, CallStatus status, String dedupKey) {
        return service.process(new CallReport(Provider.SIMULATOR, RUN, "sim-70", status, null, dedupKey),
                SignatureCheck.VERIFIED_BY_ADAPTER).await().indefinitely();
    }

    @Test
    void aCallPlacedUnderItsRequestIdIsKnownByItsCallIdFromTheFirstReportNamingBoth() {
        call(CallStatus.INITIATED, null); // placed: the carrier gave its request id, sim-70
        ProcessCallReportService service = service();
        String ringing = service.process(new CallReport(Provider.SIMULATOR, RUN, "call-uuid-1", CallStatus.RINGING,
                null, "call-uuid-1:ringing", "sim-70"), SignatureCheck.VERIFIED_BY_ADAPTER).await().indefinitely();

        assertThat(ringing).isEqualTo("applied: ringing");
        assertThat(renamedTo).containsExactly("call-uuid-1");
        assertThat(calls.get(RUN).attempt().providerCallId()).isEqualTo("call-uuid-1");
        // later reports name it by its call id (their request id is no longer the call's: no second rename)
        assertThat(service.process(new CallReport(Provider.SIMULATOR, RUN, "call-uuid-1", CallStatus.IN_PROGRESS,
                null, "call-uuid-1:answered", "sim-70"), SignatureCheck.VERIFIED_BY_ADAPTER).await().indefinitely())
                .isEqualTo("applied: in-progress");
        assertThat(renamedTo).hasSize(1);
        // a report of another call (neither id the call's) is not this call's
        assertThatThrownBy(() -> service.process(new CallReport(Provider.SIMULATOR, RUN, "call-uuid-2",
                CallStatus.COMPLETED, null, "call-uuid-2:completed", "request-2"), SignatureCheck.VERIFIED_BY_ADAPTER)
                .await().indefinitely()).hasMessageContaining("No such call");
    }

    @Test
    void aReportIsAppliedOnceAndItsDuplicateChangesNothing() {
        call(CallStatus.INITIATED, null);
        ProcessCallReportService service = service();
        assertThat(report(service, CallStatus.RINGING, "r1")).isEqualTo("applied: ringing");
        assertThat(calls.get(RUN).attempt().status()).isEqualTo(CallStatus.RINGING);
        assertThat(report(service, CallStatus.RINGING, "r1")).isEqualTo("duplicate");
        assertThat(events).singleElement().satisfies(e -> assertThat(e).extracting(WebhookEvent::type)
                .containsExactly("call.status"));
    }

    @Test
    void aLateOrOutOfOrderReportIsAcknowledgedWithoutChange() {
        call(CallStatus.IN_PROGRESS, null);
        ProcessCallReportService service = service();
        assertThat(report(service, CallStatus.COMPLETED, "c1")).isEqualTo("applied: completed");
        assertThat(report(service, CallStatus.RINGING, "r1")).startsWith("ignored: ");
        assertThat(calls.get(RUN).attempt().status()).isEqualTo(CallStatus.COMPLETED);
        assertThat(events).hasSize(1);
        assertThat(events.getFirst()).extracting(WebhookEvent::type).containsExactly("call.status", "run.completed");
    }

    @Test
    void aReportThatLostARaceIsDecidedAgainOnTheFreshCall() {
        call(CallStatus.RINGING, null);
        ProcessCallReportService service = service();
        concurrentWriter = () -> call(CallStatus.IN_PROGRESS, null); // another report answered the call meanwhile
        assertThat(report(service, CallStatus.COMPLETED, "c1")).isEqualTo("applied: completed");
        assertThat(events).singleElement().satisfies(e -> assertThat(e.getFirst().data())
                .as("the status it left is the fresh one").containsEntry("previous_status", "in-progress"));
    }

    @Test
    void anUnverifiedReportIsRefusedAndWritesNothing() {
        call(CallStatus.INITIATED, null);
        ProcessCallReportService service = service();
        assertThatThrownBy(() -> service.process(new CallReport(Provider.SIMULATOR, RUN, "sim-70", CallStatus.RINGING,
                null, "r1"), configuration -> false).await().indefinitely()).isInstanceOf(ForbiddenException.class);
        assertThat(events).isEmpty();
        assertThat(applied).isEmpty();
    }

    @Test
    void aCampaignCallsBusyOutcomeSchedulesTheContactsRetryAndFreesItsSlot() {
        CampaignAttempt attempt = new CampaignAttempt(9, 11, 1);
        call(CallStatus.RINGING, attempt);
        ProcessCallReportService service = service();
        assertThat(report(service, CallStatus.BUSY, "b1")).isEqualTo("applied: busy");
        assertThat(effects).singleElement().satisfies(effect -> {
            assertThat(effect.finished()).isFalse();
            assertThat(effect.retryAt()).isEqualTo(NOW.plus(Duration.ofSeconds(RetryConfig.DEFAULT.retryDelaySeconds())));
        });
        assertThat(events.getFirst()).extracting(WebhookEvent::type).as("no contact event while a retry is due")
                .containsExactly("call.status", "run.completed");
        assertThat(slotsFreed).containsExactly(1L);
    }
}
