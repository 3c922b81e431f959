package dev.voiceagent.application.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.call.CallChanges;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.call.ContactEffect;
import dev.voiceagent.application.call.OutboundCall;
import dev.voiceagent.application.dispatch.DispatchMetrics;
import dev.voiceagent.application.fakes.InMemoryDispatchLedger;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.application.telephony.PhoneNumberRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.workflow.RunCompletions;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.calling.CallingHours;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignState;
import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.ContactScreening;
import dev.voiceagent.domain.campaign.DueContact;
import dev.voiceagent.domain.campaign.RetryConfig;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher's orchestration without Quarkus or a database: the in-memory ledger holds the contacts, a scripted
 * gateway answers the dials. What is dialed, deferred, skipped; that dials happen only after their attempt is
 * recorded; completions, breaker trips, credits, drain, refused dials and the coalescing of freed slots.
 */
class DispatchCampaignsServiceTest {

    // Monday 2026-11-23 15:00 UTC: 10:00 in New York, 00:00 in Tokyo
    private static final Instant NOW = Instant.parse("2026-11-23T15:00:00Z");
    private static final long ORG = 1;
    private static final long CONFIG = 4;

    private final InMemoryDispatchLedger ledger = new InMemoryDispatchLedger();
    private final List<OutboundCall> dialed = new ArrayList<>();
    private final List<List<WebhookEvent>> committed = new ArrayList<>();
    private final List<ContactEffect> effects = new ArrayList<>();
    private final Set<String> refusedNumbers = new HashSet<>();
    private boolean creditsExhausted;
    private Function<Long, Uni<List<DispatchLedger.RunningCampaign>>> runningCampaigns;

    @SuppressWarnings("unchecked")
    private static <T> T only(Class<T> type, Map<String, Function<Object[], Object>> methods) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            Function<Object[], Object> body = methods.get(method.getName());
            if (body == null) {
                throw new UnsupportedOperationException(method.getName());
            }
            return body.apply(args);
        });
    }

    private DispatchCampaignsService dispatcher() {
        Workflow workflow = Workflow.create(ORG, 2, "Agent", WorkflowDefinition.empty(), Map.of(),
                Map.of("greeting", "Hello"), NOW, UUID.randomUUID());
        Workflow stored = new Workflow(3L, ORG, workflow.workflowUuid(), 2L, "Agent", workflow.status(), null, NOW,
                new WorkflowVersion(30L, 1, workflow.published().status(),
                        workflow.published().definition(), Map.of(), Map.of("greeting", "Hello"), NOW, NOW), null);
        WorkflowRepository workflows = only(WorkflowRepository.class, Map.of(
                "find", args -> Uni.createFrom().item(Optional.of(stored)),
                "findVersion", args -> Uni.createFrom().item(Optional.of(stored.published()))));
        TelephonyConfigurationView view = TelephonyConfigurationView.of(new TelephonyConfiguration(CONFIG, ORG, "Sim",
                ProviderConfiguration.Simulator.DEFAULT, true, true, null, null, NOW, NOW), 1);
        TelephonyConfigurationRepository configurations = only(TelephonyConfigurationRepository.class,
                Map.of("find", args -> Uni.createFrom().item(Optional.of(view))));
        PhoneNumberRepository numbers = only(PhoneNumberRepository.class,
                Map.of("list", args -> Uni.createFrom().item(List.of())));
        CallRepository calls = only(CallRepository.class, Map.of(
                "organizationLimit", args -> Uni.createFrom().item(Optional.empty()),
                "attachProviderCallId", args -> Uni.createFrom().voidItem(),
                "applyReport", args -> {
                    CallAttempt after = (CallAttempt) args[1];
                    ContactEffect effect = (ContactEffect) args[3];
                    effects.add(effect);
                    if (after.status().isFinal()) {
                        ledger.end(after.id(), after.status(), after.endedAt() == null ? NOW : after.endedAt(),
                                effect == null ? null : effect.failureReason());
                    }
                    if (effect != null && effect.finished()) {
                        ledger.contacts.get(effect.attempt().contactId()).state = "done";
                    }
                    @SuppressWarnings("unchecked")
                    List<WebhookEvent> events = (List<WebhookEvent>) args[4];
                    committed.add(events);
                    return Uni.createFrom().item(true);
                }));
        CallGateway gateway = only(CallGateway.class, Map.of(
                "provider", args -> Provider.SIMULATOR,
                "originate", args -> {
                    OutboundCall call = (OutboundCall) args[0];
                    assertThat(ledger.recorded).as("a dial is recorded before it is placed")
                            .anyMatch(r -> r.run().id() == call.runId());
                    dialed.add(call);
                    return refusedNumbers.contains(call.to())
                            ? Uni.createFrom().failure(new UpstreamServiceException("Simulator refused the call"))
                            : Uni.createFrom().item("sim-" + call.runId());
                }));
        CreditGate credits = new CreditGate(null, true) {
            @Override
            public Uni<Boolean> exhausted(long organizationId) {
                return Uni.createFrom().item(creditsExhausted);
            }
        };
        DispatchLedger store = runningCampaigns == null ? ledger : new DelegatingLedger(ledger, runningCampaigns);
        return new DispatchCampaignsService(store, workflows, configurations, numbers, calls,
                new CallChanges(calls, new RunCompletions(workflows)), List.of(gateway),
                Clock.fixed(NOW, ZoneOffset.UTC), () -> 42L,
                new DispatchSettings(10, Duration.ofHours(2), Duration.ofMinutes(2), CallingHours.DEFAULT),
                DispatchMetrics.NONE, credits, number -> List.of());
    }

    private static Campaign campaign(long id, int maxConcurrency, CircuitBreakerConfig breaker) {
        return new Campaign(id, ORG, "Promo " + id, 3, 2L, CONFIG, "csv", "campaigns/1/x.csv", CampaignState.RUNNING,
                10, 0, 0, RetryConfig.DEFAULT, maxConcurrency, null, breaker, null, null, NOW, NOW, null, List.of());
    }

    private int tick(DispatchCampaignsService dispatcher) {
        return dispatcher.tick().await().indefinitely();
    }

    @Test
    void dueContactsAreDialedUpToTheFreeSlotsEachAfterItsAttemptWasRecorded() {
        ledger.running(campaign(9, 2, null));
        for (long id = 1; id <= 3; id++) {
            ledger.contact(9, id, "+1212555010" + id, "America/New_York", false, NOW);
        }
        assertThat(tick(dispatcher())).isEqualTo(2);
        assertThat(dialed).extracting(OutboundCall::to).containsExactly("+12125550101", "+12125550102");
        assertThat(ledger.contacts.get(3L).state).as("past the free slots: still due").isEqualTo("pending");
        assertThat(ledger.locksTaken).isOne();
        WorkflowRun run = ledger.recorded.getFirst().run();
        assertThat(run.name()).isEqualTo("WR-CAMPAIGN-9-1-1");
        assertThat(run.definitionId()).as("bound to the published version").isEqualTo(30L);
        assertThat(run.initialContext()).containsEntry("greeting", "Hello").containsEntry("campaign_id", 9L)
                .containsEntry("called_number", "+12125550101");
        assertThat(ledger.recorded.getFirst().campaign().attemptNumber()).isOne();
    }

    @Test
    void aListedNumberIsSkippedWithItsEventAndANightTimeContactIsPutOff() {
        ledger.running(campaign(9, 5, null));
        ledger.contact(9, 1, "+12125550101", "America/New_York", true, NOW);
        ledger.contact(9, 2, "+81355550102", "Asia/Tokyo", false, NOW);
        ledger.contact(9, 3, "+12125550103", "America/New_York", false, NOW);
        assertThat(tick(dispatcher())).isEqualTo(1);
        assertThat(dialed).extracting(OutboundCall::to).containsExactly("+12125550103");
        assertThat(ledger.contacts.get(1L).state).isEqualTo("done");
        assertThat(ledger.contacts.get(2L).dueAt).as("deferred").isAfter(NOW);
        assertThat(ledger.events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo("contact.skipped");
            assertThat(e.data()).containsEntry("campaign_id", 9L).containsEntry("contact_id", 1L)
                    .containsEntry("reason", "do_not_call");
        });
    }

    @Test
    void aCampaignWithNothingLeftCompletesAndOneThatCannotPayPauses() {
        ledger.running(campaign(9, 5, null));
        creditsExhausted = false;
        tick(dispatcher());
        assertThat(ledger.campaigns.get(9L).state()).isEqualTo(CampaignState.COMPLETED);
        assertThat(ledger.events).extracting(WebhookEvent::type).containsExactly("campaign.completed");

        ledger.running(campaign(10, 5, null));
        ledger.contact(10, 1, "+12125550101", "America/New_York", false, NOW);
        creditsExhausted = true;
        assertThat(tick(dispatcher())).isZero();
        assertThat(ledger.campaigns.get(10L).state()).isEqualTo(CampaignState.PAUSED);
        assertThat(ledger.transitions.getLast().entry().message()).contains("credit balance is exhausted");
        assertThat(dialed).isEmpty();
    }

    @Test
    void aTrippedBreakerPausesTheCampaignAndNothingIsDialed() {
        ledger.running(campaign(9, 5, new CircuitBreakerConfig(true, 0.5, 300, 5)));
        ledger.contact(9, 1, "+12125550101", "America/New_York", false, NOW);
        for (int i = 0; i < 10; i++) { // 8 of the window's last 10 calls failed
            long call = ledger.call(ORG, 9L, NOW.minusSeconds(120));
            ledger.end(call, i < 8 ? CallStatus.FAILED : CallStatus.COMPLETED, NOW.minusSeconds(60), null);
        }
        assertThat(tick(dispatcher())).isZero();
        assertThat(ledger.campaigns.get(9L).state()).isEqualTo(CampaignState.PAUSED);
        assertThat(ledger.events).extracting(WebhookEvent::type).containsExactly("campaign.circuit_open");
        assertThat(dialed).isEmpty();
    }

    @Test
    void aRefusedDialIsSettledAsAnErrorAndItsSlotIsFilledAtOnce() {
        ledger.running(campaign(9, 1, null));
        ledger.contact(9, 1, "+12125550101", "America/New_York", false, NOW);
        ledger.contact(9, 2, "+12125550102", "America/New_York", false, NOW);
        refusedNumbers.add("+12125550101");
        DispatchCampaignsService dispatcher = dispatcher();
        tick(dispatcher);
        assertThat(effects).singleElement().satisfies(effect -> {
            assertThat(effect.failureReason()).isEqualTo(DispatchCampaignsService.DIAL_FAILED);
            assertThat(effect.finished()).isTrue();
            assertThat(effect.log().event()).isEqualTo("dial_failed");
        });
        assertThat(committed.getFirst()).extracting(WebhookEvent::type)
                .containsExactly("contact.failed", "call.status", "run.completed");
        assertThat(dialed).as("the freed slot is filled without waiting for the next tick")
                .extracting(OutboundCall::to).containsExactly("+12125550101", "+12125550102");
    }

    @Test
    void aDrainingReplicaNeitherTicksNorFillsFreedSlots() {
        ledger.running(campaign(9, 5, null));
        ledger.contact(9, 1, "+12125550101", "America/New_York", false, NOW);
        DispatchCampaignsService dispatcher = dispatcher();
        dispatcher.stopClaiming();
        assertThat(tick(dispatcher)).isZero();
        dispatcher.slotFreed(ORG);
        assertThat(dialed).isEmpty();
        assertThat(ledger.locksTaken).isZero();
    }

    @Test
    void freedSlotsArrivingDuringADispatchAreFoldedIntoOneMore() {
        ledger.running(campaign(9, 5, null));
        List<CompletableFuture<List<DispatchLedger.RunningCampaign>>> pending = new ArrayList<>();
        runningCampaigns = org -> {
            CompletableFuture<List<DispatchLedger.RunningCampaign>> future = new CompletableFuture<>();
            pending.add(future);
            return Uni.createFrom().completionStage(future);
        };
        DispatchCampaignsService dispatcher = dispatcher();
        dispatcher.slotFreed(ORG);
        dispatcher.slotFreed(ORG);
        dispatcher.slotFreed(ORG);
        assertThat(pending).as("one dispatch at a time per organization").hasSize(1);
        pending.getFirst().complete(List.of());
        assertThat(pending).as("the two requests meanwhile: one more dispatch").hasSize(2);
        pending.get(1).complete(List.of());
        assertThat(pending).hasSize(2);
        dispatcher.slotFreed(ORG);
        assertThat(pending).as("a later request starts a new one").hasSize(3);
    }

    /** The in-memory ledger, with its running campaigns answered by the test (to hold a dispatch open). */
    private record DelegatingLedger(InMemoryDispatchLedger ledger,
            Function<Long, Uni<List<RunningCampaign>>> running) implements DispatchLedger {

        @Override
        public Uni<List<Long>> organizationsWithRunningCampaigns() {
            return ledger.organizationsWithRunningCampaigns();
        }

        @Override
        public Uni<List<RunningCampaign>> runningCampaigns(long organizationId) {
            return running.apply(organizationId);
        }

        @Override
        public <T> Uni<T> underOrganizationLock(long organizationId, Function<Session, Uni<T>> work) {
            return ledger.underOrganizationLock(organizationId, work);
        }

        @Override
        public Uni<List<ExpiredAttempt>> claimExpiredLeases(Instant now, Duration extension, int limit) {
            return ledger.claimExpiredLeases(now, extension, limit);
        }

        @Override
        public Uni<Optional<CampaignKey>> claimImport(Instant now, Instant leaseUntil) {
            return ledger.claimImport(now, leaseUntil);
        }

        @Override
        public Uni<Void> renewImport(CampaignKey campaign, Instant leaseUntil) {
            return ledger.renewImport(campaign, leaseUntil);
        }

        @Override
        public Uni<CampaignActivity> activity(long organizationId, long campaignId, Instant staleBefore) {
            return ledger.activity(organizationId, campaignId, staleBefore);
        }

        @Override
        public Uni<WindowCounts> outcomesSince(long campaignId, Instant since) {
            return ledger.outcomesSince(campaignId, since);
        }
    }

    @Test
    void theLogSaysOnceWhenCallingHoursHoldDispatchBackAndOnceWhenItResumes() {
        DueContact due = new DueContact(5, 1,
                "+81355550101", "Asia/Tokyo", Map.of(), 0, null, false);
        Instant opens = NOW.plus(Duration.ofHours(8));
        var heldPlan = new ContactScreening.Plan(List.of(), Map.of(5L,
                NOW.plus(Duration.ofMinutes(5))), Map.of(), Map.of(), Map.of(5L, opens));
        var held = DispatchCampaignsService.holdChange(false, heldPlan, NOW);
        assertThat(held.event()).isEqualTo(DispatchCampaignsService.HELD);
        assertThat(held.details()).containsEntry("contacts", 1).containsEntry("next_opening", opens.toString());

        assertThat(DispatchCampaignsService.holdChange(true, heldPlan, NOW)).as("held already: said once").isNull();
        var dialPlan = new ContactScreening.Plan(List.of(due), Map.of(), Map.of(),
                Map.of(), Map.of());
        var resumed = DispatchCampaignsService.holdChange(true, dialPlan, NOW);
        assertThat(resumed.event()).isEqualTo(DispatchCampaignsService.RESUMED);
        assertThat(DispatchCampaignsService.holdChange(false, dialPlan, NOW)).as("dialing as usual: nothing to say")
                .isNull();
        var mixed = new ContactScreening.Plan(List.of(due), Map.of(6L, NOW), Map.of(),
                Map.of(), Map.of(6L, opens));
        assertThat(DispatchCampaignsService.holdChange(false, mixed, NOW)).as("some dialed: not held back").isNull();
    }

}
