package dev.voiceagent.domain.telephony;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The telephony providers, with the fields their configuration takes. supportsOutbound is true
 * only where this service has a working outbound gateway: a provider without one is never ready.
 */
public enum Provider {
    TWILIO("Twilio", true, true, false, List.of(
            Field.required("account_sid", "Account SID", false),
            Field.required("auth_token", "Auth token", true),
            Field.flag("amd_enabled", "Answering machine detection"))),
    TELNYX("Telnyx", true, true, false, List.of(
            Field.required("api_key", "API key", true),
            Field.optional("connection_id", "Call Control connection id", false),
            Field.optional("webhook_public_key", "Webhook public key (Ed25519, base64)", false))),
    PLIVO("Plivo", false, true, false, List.of(
            Field.required("auth_id", "Auth ID", false),
            Field.required("auth_token", "Auth token", true),
            Field.optional("application_id", "Application id", false))),
    VONAGE("Vonage", false, true, false, List.of(
            Field.required("api_key", "API key", false),
            Field.required("api_secret", "API secret", true),
            Field.required("application_id", "Application id", false),
            Field.required("private_key", "Private key", true),
            Field.optional("signature_secret", "Signature secret", true))),
    VOBIZ("Vobiz", false, true, false, List.of(
            Field.required("auth_id", "Auth ID", false),
            Field.required("auth_token", "Auth token", true),
            Field.optional("application_id", "Application id", false))),
    CLOUDONIX("Cloudonix", false, true, true, List.of(
            Field.required("bearer_token", "Bearer token", true),
            Field.required("domain_id", "Domain", false),
            Field.optional("application_name", "Application name", false))),
    ARI("Asterisk (ARI)", false, false, true, List.of(
            Field.required("ari_endpoint", "ARI endpoint URL", false),
            Field.required("app_name", "Stasis application", false),
            Field.required("app_password", "Password", true),
            Field.optional("ws_client_name", "WebSocket client name", false))),
    SIMULATOR("Simulator", true, true, false, List.of(
            Field.optional("rules", "Outcome rules [{suffix, outcome, duration_seconds}]", false),
            Field.optional("default_outcome", "Outcome when no rule matches", false),
            Field.optional("default_duration_seconds", "Call duration when no rule sets one", false),
            Field.optional("ring_delay_ms", "Delay before ringing and before the outcome (ms)", false)));

    /** One configuration field: whether it is required and whether it is a secret (masked, encrypted). */
    public record Field(String name, String label, boolean required, boolean sensitive, String type) {

        static Field required(String name, String label, boolean sensitive) {
            return new Field(name, label, true, sensitive, "string");
        }

        static Field optional(String name, String label, boolean sensitive) {
            return new Field(name, label, false, sensitive, "string");
        }

        static Field flag(String name, String label) {
            return new Field(name, label, false, false, "boolean");
        }
    }

    private final String displayName;
    private final boolean supportsOutbound;
    private final boolean pstn;
    private final boolean trunks;
    private final List<Field> fields;

    Provider(String displayName, boolean supportsOutbound, boolean pstn, boolean trunks, List<Field> fields) {
        this.displayName = displayName;
        this.supportsOutbound = supportsOutbound;
        this.pstn = pstn;
        this.trunks = trunks;
        this.fields = fields;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Provider> fromWireName(String value) {
        for (Provider provider : values()) {
            if (provider.wireName().equals(value)) {
                return Optional.of(provider);
            }
        }
        return Optional.empty();
    }

    public String displayName() {
        return displayName;
    }

    public boolean supportsOutbound() {
        return supportsOutbound;
    }

    /** Numbers are on the public telephone network (E.164); ARI also takes extensions and dial strings. */
    public boolean pstn() {
        return pstn;
    }

    public boolean supportsTrunks() {
        return trunks;
    }

    public List<Field> fields() {
        return fields;
    }

    public List<String> sensitiveFields() {
        return fields.stream().filter(Field::sensitive).map(Field::name).toList();
    }
}
