package dev.voiceagent.domain.telephony;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class ProviderConfigurationTest {

    private static final String SID = "AC" + "0123456789abcdef".repeat(2);

    static Stream<Arguments> validConfigurations() {
        return Stream.of(
                Arguments.of(Provider.TWILIO, Map.of("account_sid", SID, "auth_token", "tok")),
                Arguments.of(Provider.TELNYX, Map.of("api_key", "KEY", "connection_id", "c1", "webhook_public_key", "pk")),
                Arguments.of(Provider.PLIVO, Map.of("auth_id", "MA1", "auth_token", "t")),
                Arguments.of(Provider.VONAGE, Map.of("api_key", "k", "api_secret", "s", "application_id", "a",
                        "private_key", "-----BEGIN PRIVATE KEY-----")),
                Arguments.of(Provider.VOBIZ, Map.of("auth_id", "a", "auth_token", "t")),
                Arguments.of(Provider.CLOUDONIX, Map.of("bearer_token", "b", "domain_id", " Example.COM ")),
                Arguments.of(Provider.ARI, Map.of("ari_endpoint", "http://pbx:8088", "app_name", "voice",
                        "app_password", "p")),
                Arguments.of(Provider.SIMULATOR, Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validConfigurations")
    void everyProviderParsesItsFieldsAndRoundTrips(Provider provider, Map<String, Object> fields) {
        ProviderConfiguration configuration = ProviderConfigurations.parse(provider, fields);
        assertThat(configuration.provider()).isEqualTo(provider);
        assertThat(ProviderConfigurations.parse(provider, configuration.fields())).isEqualTo(configuration);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validConfigurations")
    void everyRequiredFieldIsRequired(Provider provider, Map<String, Object> fields) {
        for (Provider.Field field : provider.fields()) {
            if (!field.required()) {
                continue;
            }
            Map<String, Object> missing = new java.util.HashMap<>(fields);
            missing.remove(field.name());
            assertThatThrownBy(() -> ProviderConfigurations.parse(provider, missing)).as(field.name())
                    .isInstanceOf(DomainRuleViolation.class).hasMessageContaining(field.name());
        }
    }

    @Test
    void providerSpecificValidation() {
        assertThatThrownBy(() -> ProviderConfigurations.parse(Provider.TWILIO, Map.of("account_sid", "XX1", "auth_token", "t")))
                .hasMessageContaining("account_sid");
        assertThatThrownBy(() -> ProviderConfigurations.parse(Provider.ARI, Map.of("ari_endpoint", "pbx:8088",
                "app_name", "a", "app_password", "p"))).hasMessageContaining("ari_endpoint");
        assertThat(((ProviderConfiguration.Cloudonix) ProviderConfigurations.parse(Provider.CLOUDONIX,
                Map.of("bearer_token", "b", "domain_id", " Example.COM "))).domainId()).isEqualTo("example.com");
        assertThatThrownBy(() -> ProviderConfigurations.parse(Provider.SIMULATOR, Map.of("default_outcome", "ringing")))
                .hasMessageContaining("outcome");
        assertThat(Provider.TWILIO.sensitiveFields()).containsExactly("auth_token");
        assertThat(Provider.VONAGE.sensitiveFields()).containsExactly("api_secret", "private_key", "signature_secret");
    }

    @Test
    void theChecklistNamesEachStepAndReadinessIsDerivedFromItsBlockingSteps() {
        var telnyx = ProviderConfigurations.parse(Provider.TELNYX, Map.of("api_key", "k", "connection_id", "c"));
        var steps = OutboundReadinessPolicy.checklist(telnyx, true, 1);
        assertThat(steps).extracting(SetupStep::key)
                .containsExactly("credentials", "active", "outbound_gateway", "phone_number", "connection_id",
                        "webhook_public_key");
        assertThat(steps).filteredOn(step -> !step.complete()).extracting(SetupStep::key)
                .containsExactly("webhook_public_key");
        assertThat(OutboundReadinessPolicy.blockedReason(steps)).contains(
                "Telnyx needs the webhook_public_key to verify call events");
        // a recommended step left open does not block
        var vonage = ProviderConfigurations.parse(Provider.VONAGE, Map.of("api_key", "k", "api_secret", "s",
                "application_id", "a", "private_key", "p"));
        var vonageSteps = OutboundReadinessPolicy.checklist(vonage, true, 1);
        assertThat(vonageSteps).filteredOn(step -> step.key().equals("signature_secret"))
                .singleElement().satisfies(step -> {
                    assertThat(step.complete()).isFalse();
                    assertThat(step.blocksOutbound()).as("unverifiable call events would be lost").isTrue();
                });
        assertThat(OutboundReadinessPolicy.blockedReason(vonageSteps).orElseThrow())
                .contains("Vonage needs the signature_secret");
        var signed = ProviderConfigurations.parse(Provider.VONAGE, Map.of("api_key", "k", "api_secret", "s",
                "application_id", "a", "private_key", "p", "signature_secret", "secret"));
        assertThat(OutboundReadinessPolicy.blockedReason(signed, true, 1)).as("Vonage calls talk").isEmpty();
        // the simulator needs no number to call from
        assertThat(OutboundReadinessPolicy.checklist(ProviderConfiguration.Simulator.DEFAULT, true, 0))
                .extracting(SetupStep::key).doesNotContain("phone_number");
    }

    @Test
    void readinessFromRealPrerequisites() {
        var twilio = ProviderConfigurations.parse(Provider.TWILIO, Map.of("account_sid", SID, "auth_token", "t"));
        assertThat(OutboundReadinessPolicy.blockedReason(twilio, true, 1)).isEmpty();
        assertThat(OutboundReadinessPolicy.blockedReason(twilio, true, 0)).contains("Add at least one active phone number to call from");
        assertThat(OutboundReadinessPolicy.blockedReason(twilio, false, 3)).contains("The configuration is inactive");
        var telnyx = ProviderConfigurations.parse(Provider.TELNYX, Map.of("api_key", "k"));
        assertThat(OutboundReadinessPolicy.blockedReason(telnyx, true, 1).orElseThrow()).contains("connection_id");
        var plivo = ProviderConfigurations.parse(Provider.PLIVO, Map.of("auth_id", "a", "auth_token", "t"));
        assertThat(OutboundReadinessPolicy.blockedReason(plivo, true, 5)).as("Plivo calls talk").isEmpty();
        var vobiz = ProviderConfigurations.parse(Provider.VOBIZ, Map.of("auth_id", "a", "auth_token", "t"));
        assertThat(OutboundReadinessPolicy.blockedReason(vobiz, true, 0).orElseThrow()).contains("phone number");
        var cloudonix = ProviderConfigurations.parse(Provider.CLOUDONIX, Map.of("bearer_token", "b", "domain_id",
                "example.cloudonix.net"));
        assertThat(OutboundReadinessPolicy.blockedReason(cloudonix, true, 5)).as("Cloudonix calls talk").isEmpty();
        var ari = ProviderConfigurations.parse(Provider.ARI, Map.of("ari_endpoint", "http://pbx.example.com:8088",
                "app_name", "agents", "app_password", "p"));
        assertThat(OutboundReadinessPolicy.blockedReason(ari, true, 5).orElseThrow())
                .as("no media without Asterisk's websocket client").contains("ws_client_name");
        var ariWithMedia = ProviderConfigurations.parse(Provider.ARI, Map.of("ari_endpoint",
                "http://pbx.example.com:8088", "app_name", "agents", "app_password", "p", "ws_client_name", "voiceagent"));
        assertThat(OutboundReadinessPolicy.blockedReason(ariWithMedia, true, 5)).as("Asterisk calls talk").isEmpty();
        assertThat(OutboundReadinessPolicy.blockedReason(ProviderConfiguration.Simulator.DEFAULT, true, 0)).isEmpty();
        assertThat(Provider.values()).as("every carrier the reference speaks places calls here")
                .allMatch(Provider::supportsOutbound);
    }

    @Test
    void simulatorRulesPickTheLongestMatchingSuffix() {
        var simulator = ProviderConfigurations.parse(Provider.SIMULATOR, Map.of(
                "rules", List.of(Map.of("suffix", "0", "outcome", "busy"),
                        Map.of("suffix", "00", "outcome", "no-answer"),
                        Map.of("suffix", "7", "outcome", "completed", "duration_seconds", 42)),
                "default_outcome", "voicemail", "default_duration_seconds", 5));
        var s = (ProviderConfiguration.Simulator) simulator;
        assertThat(s.outcomeFor("+15550010").outcome()).isEqualTo(CallStatus.BUSY);
        assertThat(s.outcomeFor("+15550100").outcome()).isEqualTo(CallStatus.NO_ANSWER);
        assertThat(s.outcomeFor("+15550107").durationSeconds()).isEqualTo(42);
        assertThat(s.outcomeFor("+15550101").outcome()).isEqualTo(CallStatus.VOICEMAIL);
        assertThat(s.outcomeFor("+15550101").durationSeconds()).isEqualTo(5);
    }

    @Test
    void aSimulatorRuleWithLinesTalksAndItsScriptRoundTripsThroughItsFields() {
        Map<String, Object> fields = Map.of("rules", List.of(Map.of("suffix", "5", "outcome", "completed",
                "lines", List.of(" Hello? ", "Book me in."), "interrupt_line", 2)));
        var s = (ProviderConfiguration.Simulator) ProviderConfigurations.parse(Provider.SIMULATOR, fields);
        var rule = s.outcomeFor("+15550105");
        assertThat(rule.talks()).isTrue();
        assertThat(rule.script().lines()).containsExactly("Hello?", "Book me in.");
        assertThat(rule.script().pauseMs()).isEqualTo(CalleeScript.DEFAULT_PAUSE_MS);
        assertThat(rule.script().interrupts(1)).isTrue();
        assertThat(rule.script().interrupts(0)).isFalse();
        assertThat(s.outcomeFor("+15550106").talks()).isFalse();
        var again = (ProviderConfiguration.Simulator) ProviderConfigurations.parse(Provider.SIMULATOR, s.fields());
        assertThat(again).isEqualTo(s);

        for (Map<String, Object> bad : List.<Map<String, Object>>of(
                Map.of("suffix", "5", "outcome", "busy", "lines", List.of("Hello?")),
                Map.of("suffix", "5", "outcome", "completed", "lines", List.of()),
                Map.of("suffix", "5", "outcome", "completed", "lines", List.of("a".repeat(301))),
                Map.of("suffix", "5", "outcome", "completed", "lines", "Hello?"),
                Map.of("suffix", "5", "outcome", "completed", "lines", List.of("Hello?"), "interrupt_line", 1),
                Map.of("suffix", "5", "outcome", "completed", "lines", List.of("Hello?"), "pause_ms", 10_001),
                Map.of("suffix", "5", "outcome", "completed", "interrupt_after_ms", 10))) {
            assertThatThrownBy(() -> ProviderConfigurations.parse(Provider.SIMULATOR, Map.of("rules", List.of(bad))))
                    .as("%s", bad).isInstanceOf(DomainRuleViolation.class);
        }
    }

    @Test
    void callerSelectionPrefersTheRequestedThenTheDefaultThenAnyActiveNumber() {
        var a = new CallerSelection.Number(1, "+1555001", true, false);
        var b = new CallerSelection.Number(2, "+1555002", true, true);
        var c = new CallerSelection.Number(3, "+1555003", false, false);
        var random = new SplittableRandom(7);
        assertThat(CallerSelection.choose(List.of(a, b, c), 1L, random)).contains(a);
        assertThat(CallerSelection.choose(List.of(a, b, c), 3L, random)).isEmpty();
        assertThat(CallerSelection.choose(List.of(a, b, c), null, random)).contains(b);
        assertThat(CallerSelection.choose(List.of(a, c), null, random)).contains(a);
        assertThat(CallerSelection.choose(List.of(c), null, random)).isEmpty();
    }
}
