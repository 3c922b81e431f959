package dev.voiceagent.domain.telephony;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The telephony providers, with the fields their configuration takes. supportsOutbound is true
 * only where this service has a working outbound gateway: a provider without one is never ready.
 */
public enum Provider {
    TWILIO("Twilio", true, true, false, "https://www.twilio.com/docs/voice", List.of(
            Field.required("account_sid", "Account SID", false, "The Account SID from the Twilio console",
                    "ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
            Field.required("auth_token", "Auth token", true, "The account's Auth Token, used to sign and verify", null),
            Field.flag("amd_enabled", "Answering machine detection",
                    "Let Twilio detect answering machines (billed by Twilio)"))),
    TELNYX("Telnyx", true, true, false, "https://developers.telnyx.com/docs/voice/programmable-voice/get-started", List.of(
            Field.required("api_key", "API key", true, "A Telnyx API v2 key", "KEYxxxxxxxx"),
            Field.optional("connection_id", "Call Control connection id", false,
                    "The Call Control application that places the calls", null),
            Field.optional("webhook_public_key", "Webhook public key (Ed25519, base64)", false,
                    "The account's public key, to verify call events", null))),
    PLIVO("Plivo", true, true, false, "https://www.plivo.com/docs/voice/", List.of(
            Field.required("auth_id", "Auth ID", false, "The Auth ID from the Plivo console", null),
            Field.required("auth_token", "Auth token", true, "The account's Auth Token", null),
            Field.optional("application_id", "Application id", false, "The Plivo application that answers calls", null))),
    VONAGE("Vonage", true, true, false, "https://developer.vonage.com/en/voice/voice-api/overview", List.of(
            Field.required("api_key", "API key", false, "The account's API key", null),
            Field.required("api_secret", "API secret", true, "The account's API secret", null),
            Field.required("application_id", "Application id", false, "The Voice application's id", null),
            Field.required("private_key", "Private key", true, "The Voice application's private key (PEM)",
                    "-----BEGIN PRIVATE KEY-----"),
            Field.optional("signature_secret", "Signature secret", true,
                    "The account's signature secret, to verify call events", null))),
    VOBIZ("Vobiz", true, true, false, "https://docs.vobiz.ai", List.of(
            Field.required("auth_id", "Auth ID", false, "The account's Auth ID", null),
            Field.required("auth_token", "Auth token", true, "The account's Auth Token", null),
            Field.optional("application_id", "Application id", false, "The application that answers calls", null))),
    CLOUDONIX("Cloudonix", true, true, true, "https://developers.cloudonix.com", List.of(
            Field.required("bearer_token", "Bearer token", true, "An API key of the Cloudonix domain", null),
            Field.required("domain_id", "Domain", false, "The Cloudonix domain", "example.cloudonix.net"),
            Field.optional("application_name", "Application name", false, "The voice application of the domain", null))),
    ARI("Asterisk (ARI)", true, false, true,
            "https://docs.asterisk.org/Configuration/Interfaces/Asterisk-REST-Interface-ARI/", List.of(
            Field.required("ari_endpoint", "ARI endpoint URL", false, "Base URL of the Asterisk REST Interface",
                    "http://pbx.example.com:8088"),
            Field.required("app_name", "ARI user (and Stasis application)", false,
                    "The ARI user, matching its ari.conf section; calls are sent to the Stasis application of the"
                            + " same name", null),
            Field.required("app_password", "Password", true, "The ARI user's password", null),
            Field.optional("ws_client_name", "WebSocket client name", false,
                    "The websocket_client.conf connection through which Asterisk's externalMedia channels reach"
                            + " this service's media route", "voiceagent"),
            Field.setting("external_pbx", "External PBX (VICIdial)", "object",
                    "The VICIdial the calls come through: {type: vicidial, agent_api: {url, username, password,"
                            + " source}, non_agent_api?: {url, username, password, source}, timeout_seconds: 1-30};"
                            + " used when the organization turns external PBX integrations on", null))),
    SIMULATOR("Simulator", true, true, false, null, List.of(
            Field.setting("rules", "Outcome rules [{suffix, outcome, duration_seconds}]", "array",
                    "The outcome of calls to numbers ending in each suffix", null),
            Field.optional("default_outcome", "Outcome when no rule matches", false,
                    "completed, busy, no-answer, failed, canceled or error", "completed"),
            Field.setting("default_duration_seconds", "Call duration when no rule sets one", "integer",
                    "How long an answered call lasts, in seconds", "30"),
            Field.setting("ring_delay_ms", "Delay before ringing and before the outcome (ms)", "integer",
                    "Milliseconds between the simulated call's events", "500")));

    /**
     * One configuration field: whether it is required, whether it is a secret (masked, encrypted), and
     * what the form says of it (description, placeholder; section: credentials for required and secret
     * fields, settings for the rest).
     */
    public record Field(String name, String label, boolean required, boolean sensitive, String type,
            String description, String placeholder) {

        static Field required(String name, String label, boolean sensitive, String description, String placeholder) {
            return new Field(name, label, true, sensitive, "string", description, placeholder);
        }

        static Field optional(String name, String label, boolean sensitive, String description, String placeholder) {
            return new Field(name, label, false, sensitive, "string", description, placeholder);
        }

        static Field flag(String name, String label, String description) {
            return new Field(name, label, false, false, "boolean", description, null);
        }

        /** An optional, non-secret field of another JSON type (integer, array). */
        static Field setting(String name, String label, String type, String description, String placeholder) {
            return new Field(name, label, false, false, type, description, placeholder);
        }

        public String section() {
            return required || sensitive ? "credentials" : "settings";
        }
    }

    private final String displayName;
    private final boolean supportsOutbound;
    private final boolean pstn;
    private final boolean trunks;
    private final String docsUrl;
    private final List<Field> fields;

    Provider(String displayName, boolean supportsOutbound, boolean pstn, boolean trunks, String docsUrl,
            List<Field> fields) {
        this.docsUrl = docsUrl;
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

    /** "sip" for providers reached through SIP trunks (Asterisk, Cloudonix), "api" for the others. */
    public String connectivity() {
        return trunks ? "sip" : "api";
    }

    /** The provider's own voice documentation, or null. */
    public String docsUrl() {
        return docsUrl;
    }

    public List<Field> fields() {
        return fields;
    }

    public List<String> sensitiveFields() {
        return fields.stream().filter(Field::sensitive).map(Field::name).toList();
    }
}
