package dev.voiceagent.application.telephony;

import java.util.List;

/**
 * What an organization should still do about its telephony: the reference's two counts (Telnyx
 * configurations without the webhook public key, Vonage ones without the signature secret) and each
 * warning in words (no configuration, what blocks outbound calls, numbers the numbering plan does not
 * know).
 */
public record TelephonyConfigWarnings(long telnyxMissingWebhookPublicKey, long vonageMissingSignatureSecret,
        List<Warning> warnings) {

    /** One warning; the configuration and number it is about, when it is about one. */
    public record Warning(Long configurationId, String configurationName, Long phoneNumberId, String message) {
    }

    public TelephonyConfigWarnings {
        warnings = List.copyOf(warnings);
    }
}
