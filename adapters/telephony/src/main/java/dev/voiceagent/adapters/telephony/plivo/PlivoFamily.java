package dev.voiceagent.adapters.telephony.plivo;

import dev.voiceagent.application.call.SignatureCheck;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import jakarta.ws.rs.core.HttpHeaders;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The carriers that speak Plivo's voice platform: its Call API, its XML, its audio stream and its webhooks (form
 * posts with CallUUID, RequestUUID, CallStatus), each with its own routes, credentials and signature headers.
 */
public enum PlivoFamily {
    PLIVO(Provider.PLIVO, "plivo"), VOBIZ(Provider.VOBIZ, "vobiz");

    private final Provider provider;
    private final String route;

    PlivoFamily(Provider provider, String route) {
        this.provider = provider;
        this.route = route;
    }

    public Provider provider() {
        return provider;
    }

    /** The path segment of its routes under /api/v1/telephony. */
    public String route() {
        return route;
    }

    public static Optional<PlivoFamily> of(String route) {
        for (PlivoFamily family : values()) {
            if (family.route.equals(route)) {
                return Optional.of(family);
            }
        }
        return Optional.empty();
    }

    /** The carrier whose signature headers a webhook carries, if any of the family's. */
    public static Optional<PlivoFamily> signing(HttpHeaders headers) {
        if (header(headers, "X-Plivo-Signature-V3") != null || header(headers, "X-Plivo-Signature-Ma-V3") != null) {
            return Optional.of(PLIVO);
        }
        for (String name : List.of("X-Vobiz-Signature-V3", "X-Vobiz-Signature-Ma-V3", "X-Vobiz-Signature-V2",
                "X-Vobiz-Signature-Ma-V2")) {
            if (header(headers, name) != null) {
                return Optional.of(VOBIZ);
            }
        }
        return Optional.empty();
    }

    /** The account's auth token, or null for another provider's configuration. */
    static String authToken(ProviderConfiguration configuration) {
        return switch (configuration) {
            case ProviderConfiguration.Plivo p -> p.authToken();
            case ProviderConfiguration.Vobiz v -> v.authToken();
            default -> null;
        };
    }

    /**
     * The check of a webhook posted to {@code url} (the address this service gave the carrier) with the form
     * {@code params}, against the auth token of a configuration of this carrier.
     */
    public SignatureCheck signature(String url, Map<String, List<String>> params, HttpHeaders headers) {
        if (this == PLIVO) {
            String signature = first(header(headers, "X-Plivo-Signature-V3"), header(headers, "X-Plivo-Signature-Ma-V3"));
            String nonce = header(headers, "X-Plivo-Signature-V3-Nonce");
            return configuration -> configuration.provider() == provider
                    && PlivoSignature.validPlivo(authToken(configuration), url, params, signature, nonce);
        }
        String v3 = first(header(headers, "X-Vobiz-Signature-V3"), header(headers, "X-Vobiz-Signature-Ma-V3"));
        String signature = v3 != null ? v3
                : first(header(headers, "X-Vobiz-Signature-V2"), header(headers, "X-Vobiz-Signature-Ma-V2"));
        String nonce = header(headers, v3 != null ? "X-Vobiz-Signature-V3-Nonce" : "X-Vobiz-Signature-V2-Nonce");
        return configuration -> configuration.provider() == provider
                && PlivoSignature.validVobiz(authToken(configuration), url, signature, nonce, v3 != null);
    }

    private static String header(HttpHeaders headers, String name) {
        return headers == null ? null : headers.getHeaderString(name);
    }

    private static String first(String a, String b) {
        return a != null ? a : b;
    }
}
