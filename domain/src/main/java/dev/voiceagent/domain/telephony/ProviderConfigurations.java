package dev.voiceagent.domain.telephony;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.telephony.ProviderConfiguration.SimulatorRule;
import dev.voiceagent.domain.workflow.SecretMasking;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds the typed configuration of a provider from its fields, checking them against the provider's table. */
public final class ProviderConfigurations {

    private ProviderConfigurations() {
    }

    /** The provider's secret fields shown with all but their last 4 characters masked (an external PBX's too). */
    public static Map<String, Object> masked(Provider provider, Map<String, Object> fields) {
        Map<String, Object> out = new LinkedHashMap<>(fields);
        for (String secret : provider.sensitiveFields()) {
            if (out.get(secret) instanceof String s && !s.isEmpty()) {
                out.put(secret, SecretMasking.mask(s));
            }
        }
        if (out.get("external_pbx") instanceof Map<?, ?> pbx) {
            Map<String, Object> copy = nested(pbx);
            for (String path : ExternalPbx.SECRET_PATHS) {
                String[] parts = path.split("\\.");
                if (copy.get(parts[0]) instanceof Map<?, ?> api) {
                    Map<String, Object> apiCopy = nested(api);
                    if (apiCopy.get(parts[1]) instanceof String s && !s.isEmpty()) {
                        apiCopy.put(parts[1], SecretMasking.mask(s));
                    }
                    copy.put(parts[0], apiCopy);
                }
            }
            out.put("external_pbx", copy);
        }
        return out;
    }

    private static Map<String, Object> nested(Map<?, ?> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(String.valueOf(k), v));
        return copy;
    }

    /** Incoming fields where a secret sent back exactly as it was shown keeps the stored value. */
    public static Map<String, Object> restored(Provider provider, Map<String, Object> incoming,
            Map<String, Object> stored) {
        Map<String, Object> out = new LinkedHashMap<>(incoming);
        for (String secret : provider.sensitiveFields()) {
            if (incoming.get(secret) instanceof String s && stored.get(secret) instanceof String old
                    && SecretMasking.mask(old).equals(s)) {
                out.put(secret, old);
            }
        }
        if (incoming.get("external_pbx") instanceof Map<?, ?> pbx && stored.get("external_pbx") instanceof Map<?, ?> was) {
            Map<String, Object> copy = nested(pbx);
            for (String path : ExternalPbx.SECRET_PATHS) {
                String[] parts = path.split("\\.");
                if (copy.get(parts[0]) instanceof Map<?, ?> api && was.get(parts[0]) instanceof Map<?, ?> storedApi
                        && api.get(parts[1]) instanceof String s && storedApi.get(parts[1]) instanceof String old
                        && SecretMasking.mask(old).equals(s)) {
                    Map<String, Object> apiCopy = nested(api);
                    apiCopy.put(parts[1], old);
                    copy.put(parts[0], apiCopy);
                }
            }
            out.put("external_pbx", copy);
        }
        return out;
    }

    public static ProviderConfiguration parse(Provider provider, Map<String, Object> raw) {
        Map<String, Object> fields = raw == null ? Map.of() : raw;
        for (Provider.Field field : provider.fields()) {
            Object value = fields.get(field.name());
            if (field.required() && (value == null || value instanceof String s && s.isBlank())) {
                throw new DomainRuleViolation(field.name() + " is required for " + provider.displayName());
            }
            if (value != null && "string".equals(field.type()) && !(value instanceof String)
                    && provider != Provider.SIMULATOR) {
                throw new DomainRuleViolation(field.name() + " must be a string");
            }
        }
        return switch (provider) {
            case TWILIO -> new ProviderConfiguration.Twilio(text(fields, "account_sid"), text(fields, "auth_token"),
                    Boolean.TRUE.equals(fields.get("amd_enabled")));
            case TELNYX -> new ProviderConfiguration.Telnyx(text(fields, "api_key"), text(fields, "connection_id"),
                    text(fields, "webhook_public_key"));
            case PLIVO -> new ProviderConfiguration.Plivo(text(fields, "auth_id"), text(fields, "auth_token"),
                    text(fields, "application_id"));
            case VONAGE -> new ProviderConfiguration.Vonage(text(fields, "api_key"), text(fields, "api_secret"),
                    text(fields, "application_id"), text(fields, "private_key"), text(fields, "signature_secret"));
            case VOBIZ -> new ProviderConfiguration.Vobiz(text(fields, "auth_id"), text(fields, "auth_token"),
                    text(fields, "application_id"));
            case CLOUDONIX -> new ProviderConfiguration.Cloudonix(text(fields, "bearer_token"), text(fields, "domain_id"),
                    text(fields, "application_name"));
            case ARI -> new ProviderConfiguration.Ari(text(fields, "ari_endpoint"), text(fields, "app_name"),
                    text(fields, "app_password"), Optional.ofNullable(text(fields, "ws_client_name")).orElse(""),
                    ExternalPbx.parse(fields.get("external_pbx")));
            case SIMULATOR -> simulator(fields);
        };
    }

    private static ProviderConfiguration.Simulator simulator(Map<String, Object> fields) {
        ProviderConfiguration.Simulator d = ProviderConfiguration.Simulator.DEFAULT;
        List<SimulatorRule> rules = new ArrayList<>();
        if (fields.get("rules") instanceof List<?> raw) {
            for (Object o : raw) {
                if (!(o instanceof Map<?, ?> rule)) {
                    throw new DomainRuleViolation("rules must be a list of {suffix, outcome, duration_seconds}");
                }
                rules.add(new SimulatorRule(String.valueOf(rule.get("suffix")), status(rule.get("outcome")),
                        rule.get("duration_seconds") instanceof Number n ? Integer.valueOf(n.intValue()) : null,
                        script(rule)));
            }
        } else if (fields.get("rules") != null) {
            throw new DomainRuleViolation("rules must be a list of {suffix, outcome, duration_seconds}");
        }
        return new ProviderConfiguration.Simulator(rules,
                fields.containsKey("default_outcome") ? status(fields.get("default_outcome")) : d.defaultOutcome(),
                number(fields, "default_duration_seconds", d.defaultDurationSeconds()),
                number(fields, "ring_delay_ms", d.ringDelayMs()));
    }

    /** A rule's callee script from its lines, pause_ms, interrupt_line and interrupt_after_ms; none without lines. */
    private static CalleeScript script(Map<?, ?> rule) {
        Object lines = rule.get("lines");
        if (lines == null) {
            for (String name : List.of("pause_ms", "interrupt_line", "interrupt_after_ms")) {
                if (rule.get(name) != null) {
                    throw new DomainRuleViolation(name + " needs lines: the callee's script");
                }
            }
            return null;
        }
        if (!(lines instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
            throw new DomainRuleViolation("lines must be a list of sentences for the callee to say");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) rule;
        Object interrupt = fields.get("interrupt_line");
        if (interrupt != null && !(interrupt instanceof Number)) {
            throw new DomainRuleViolation("interrupt_line must be a number");
        }
        return new CalleeScript(list.stream().map(String.class::cast).toList(),
                number(fields, "pause_ms", CalleeScript.DEFAULT_PAUSE_MS),
                interrupt == null ? null : ((Number) interrupt).intValue(),
                number(fields, "interrupt_after_ms", CalleeScript.DEFAULT_INTERRUPT_AFTER_MS));
    }

    private static CallStatus status(Object value) {
        return CallStatus.fromWireName(value == null ? null : String.valueOf(value)).filter(CallStatus::isFinal)
                .orElseThrow(() -> new DomainRuleViolation("outcome must be one of: completed, busy, no-answer,"
                        + " voicemail, failed, canceled, error"));
    }

    private static int number(Map<String, Object> fields, String name, int fallback) {
        Object value = fields.get(name);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Number n)) {
            throw new DomainRuleViolation(name + " must be a number");
        }
        return n.intValue();
    }

    private static String text(Map<String, Object> fields, String name) {
        return fields.get(name) instanceof String s && !s.isBlank() ? s.strip() : null;
    }
}
