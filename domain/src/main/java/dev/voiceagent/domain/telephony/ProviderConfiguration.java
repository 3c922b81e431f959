package dev.voiceagent.domain.telephony;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** The credentials and settings of one provider account, each type validating its own fields. */
public sealed interface ProviderConfiguration {

    Provider provider();

    /** The fields as stored and shown (secrets in clear here: the adapters encrypt and mask them). */
    Map<String, Object> fields();

    /** The provider's own set-up steps beyond credentials and numbers (none by default). */
    default List<SetupStep> providerSteps() {
        return List.of();
    }

    record Twilio(String accountSid, String authToken, boolean amdEnabled) implements ProviderConfiguration {
        private static final Pattern SID = Pattern.compile("AC[0-9a-fA-F]{32}");

        public Twilio {
            if (!SID.matcher(accountSid).matches()) {
                throw new DomainRuleViolation("account_sid must be 'AC' followed by 32 hexadecimal characters");
            }
        }

        @Override
        public Provider provider() {
            return Provider.TWILIO;
        }

        @Override
        public Map<String, Object> fields() {
            return map("account_sid", accountSid, "auth_token", authToken, "amd_enabled", amdEnabled);
        }
    }

    record Telnyx(String apiKey, String connectionId, String webhookPublicKey) implements ProviderConfiguration {
        @Override
        public Provider provider() {
            return Provider.TELNYX;
        }

        @Override
        public Map<String, Object> fields() {
            return map("api_key", apiKey, "connection_id", connectionId, "webhook_public_key", webhookPublicKey);
        }

        @Override
        public List<SetupStep> providerSteps() {
            return List.of(SetupStep.blocking("connection_id", "Call Control connection",
                            "The Telnyx Call Control application (connection_id) that places the calls",
                            connectionId != null, "Telnyx needs the Call Control connection_id to place calls"),
                    SetupStep.blocking("webhook_public_key", "Webhook public key",
                            "The Ed25519 public key of the Telnyx account, to verify its call events",
                            webhookPublicKey != null, "Telnyx needs the webhook_public_key to verify call events"));
        }
    }

    record Plivo(String authId, String authToken, String applicationId) implements ProviderConfiguration {
        @Override
        public Provider provider() {
            return Provider.PLIVO;
        }

        @Override
        public Map<String, Object> fields() {
            return map("auth_id", authId, "auth_token", authToken, "application_id", applicationId);
        }
    }

    record Vonage(String apiKey, String apiSecret, String applicationId, String privateKey, String signatureSecret)
            implements ProviderConfiguration {
        @Override
        public Provider provider() {
            return Provider.VONAGE;
        }

        @Override
        public Map<String, Object> fields() {
            return map("api_key", apiKey, "api_secret", apiSecret, "application_id", applicationId,
                    "private_key", privateKey, "signature_secret", signatureSecret);
        }

        @Override
        public List<SetupStep> providerSteps() {
            return List.of(SetupStep.blocking("signature_secret", "Webhook signature secret",
                    "The signature secret of the Vonage account, to verify its call events (the application's signed"
                            + " webhooks turned on)", signatureSecret != null,
                    "Vonage needs the signature_secret to verify call events"));
        }
    }

    record Vobiz(String authId, String authToken, String applicationId) implements ProviderConfiguration {
        @Override
        public Provider provider() {
            return Provider.VOBIZ;
        }

        @Override
        public Map<String, Object> fields() {
            return map("auth_id", authId, "auth_token", authToken, "application_id", applicationId);
        }
    }

    record Cloudonix(String bearerToken, String domainId, String applicationName) implements ProviderConfiguration {
        public Cloudonix {
            domainId = domainId.strip().toLowerCase(Locale.ROOT);
        }

        @Override
        public Provider provider() {
            return Provider.CLOUDONIX;
        }

        @Override
        public Map<String, Object> fields() {
            return map("bearer_token", bearerToken, "domain_id", domainId, "application_name", applicationName);
        }
    }

    /** @param externalPbx the VICIdial its calls come through, or null */
    record Ari(String ariEndpoint, String appName, String appPassword, String wsClientName, ExternalPbx externalPbx)
            implements ProviderConfiguration {

        public Ari(String ariEndpoint, String appName, String appPassword, String wsClientName) {
            this(ariEndpoint, appName, appPassword, wsClientName, null);
        }

        public Ari {
            URI uri;
            try {
                uri = URI.create(ariEndpoint);
            } catch (IllegalArgumentException e) {
                throw new DomainRuleViolation("ari_endpoint must be an http(s) URL");
            }
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new DomainRuleViolation("ari_endpoint must be an http(s) URL");
            }
        }

        @Override
        public Provider provider() {
            return Provider.ARI;
        }

        @Override
        public Map<String, Object> fields() {
            return map("ari_endpoint", ariEndpoint, "app_name", appName, "app_password", appPassword,
                    "ws_client_name", wsClientName, "external_pbx", externalPbx == null ? null : externalPbx.fields());
        }

        @Override
        public List<SetupStep> providerSteps() {
            return List.of(SetupStep.blocking("ws_client_name", "Media WebSocket client",
                    "The websocket_client.conf connection (uri: this service's /api/v1/telephony/ws/ari, protocols:"
                            + " media) that Asterisk's externalMedia channels dial", !wsClientName.isBlank(),
                    "Asterisk needs ws_client_name (its websocket_client.conf connection to this service's media"
                            + " route) to carry a call's media"));
        }
    }

    record Simulator(List<SimulatorRule> rules, CallStatus defaultOutcome, int defaultDurationSeconds, int ringDelayMs)
            implements ProviderConfiguration {

        public static final Simulator DEFAULT = new Simulator(List.of(), CallStatus.COMPLETED, 30, 500);

        public Simulator {
            rules = List.copyOf(rules);
            if (!defaultOutcome.isFinal()) {
                throw new DomainRuleViolation("default_outcome must be a final status");
            }
            if (defaultDurationSeconds < 0 || defaultDurationSeconds > 3600) {
                throw new DomainRuleViolation("default_duration_seconds must be between 0 and 3600");
            }
            if (ringDelayMs < 0 || ringDelayMs > 60_000) {
                throw new DomainRuleViolation("ring_delay_ms must be between 0 and 60000");
            }
        }

        @Override
        public Provider provider() {
            return Provider.SIMULATOR;
        }

        @Override
        public Map<String, Object> fields() {
            List<Object> raw = new ArrayList<>();
            for (SimulatorRule rule : rules) {
                Map<String, Object> fields = map("suffix", rule.suffix(), "outcome", rule.outcome().wireName(),
                        "duration_seconds", rule.durationSeconds());
                if (rule.script() != null) {
                    CalleeScript script = rule.script();
                    fields.putAll(map("lines", script.lines(), "pause_ms", script.pauseMs(),
                            "interrupt_line", script.interruptLine(), "interrupt_after_ms", script.interruptAfterMs()));
                }
                raw.add(fields);
            }
            return map("rules", raw, "default_outcome", defaultOutcome.wireName(),
                    "default_duration_seconds", defaultDurationSeconds, "ring_delay_ms", ringDelayMs);
        }

        /** The outcome and duration for a dialed number: the rule with the longest matching suffix wins. */
        public SimulatorRule outcomeFor(String number) {
            SimulatorRule best = null;
            for (SimulatorRule rule : rules) {
                if (number.endsWith(rule.suffix()) && (best == null || rule.suffix().length() > best.suffix().length())) {
                    best = rule;
                }
            }
            return best != null ? best : new SimulatorRule("", defaultOutcome, defaultDurationSeconds, null);
        }
    }

    /**
     * A number ending in suffix gets this outcome (and, when answered, this duration). With a {@code script} an
     * answered call talks: the simulator connects it to the media route like a carrier and a simulated callee says the
     * script's lines; the call then lasts as long as the conversation ({@code durationSeconds} caps it).
     */
    record SimulatorRule(String suffix, CallStatus outcome, Integer durationSeconds, CalleeScript script) {
        public SimulatorRule {
            if (suffix == null) {
                throw new DomainRuleViolation("a simulator rule needs a suffix");
            }
            if (outcome == null || !outcome.isFinal()) {
                throw new DomainRuleViolation("a simulator rule's outcome must be a final status");
            }
            if (script != null && outcome != CallStatus.COMPLETED) {
                throw new DomainRuleViolation("a simulator rule with lines must have the outcome completed (only an"
                        + " answered call talks)");
            }
        }

        /** Whether an answered call under this rule talks. */
        public boolean talks() {
            return script != null;
        }
    }

    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (keysAndValues[i + 1] != null) {
                map.put((String) keysAndValues[i], keysAndValues[i + 1]);
            }
        }
        return map;
    }
}
