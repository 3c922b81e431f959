package dev.voiceagent.domain.account;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.SecretMasking;
import java.net.URI;
import java.util.Locale;

/**
 * Where an organization's call traces go (Langfuse): the host, the project's key pair and its id. The
 * keys are secrets: sealed at rest, masked on output, and a masked value sent back keeps the stored key.
 */
public record TracingCredentials(String provider, String host, String publicKey, String secretKey, String projectId) {

    public static final String LANGFUSE = "langfuse";
    static final int MAX = 2_048;

    public TracingCredentials {
        if (!LANGFUSE.equals(provider)) {
            throw new DomainRuleViolation("Unknown tracing provider: " + provider);
        }
        host = required("host", host);
        publicKey = required("public_key", publicKey);
        secretKey = required("secret_key", secretKey);
        projectId = required("project_id", projectId);
        URI uri;
        try {
            uri = URI.create(host);
        } catch (IllegalArgumentException e) {
            throw new DomainRuleViolation("host must be an http(s) URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !scheme.equals("http") || uri.getHost() == null) {
            throw new DomainRuleViolation("host must be an http(s) URL");
        }
    }

    private static String required(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new DomainRuleViolation(field + " is required");
        }
        if (value.length() > MAX) {
            throw new DomainRuleViolation(field + " must be at most " + MAX + " characters");
        }
        return value.strip();
    }

    /** The same credentials with the keys masked, for output. */
    public TracingCredentials masked() {
        return new TracingCredentials(provider, host, SecretMasking.mask(publicKey), SecretMasking.mask(secretKey),
                projectId);
    }

    /**
     * Incoming credentials whose keys, when sent back exactly as shown, are the stored ones. A key that
     * still looks masked but masks nothing stored is refused rather than stored.
     */
    public TracingCredentials restoredFrom(TracingCredentials stored) {
        String pk = stored != null && SecretMasking.mask(stored.publicKey).equals(publicKey) ? stored.publicKey
                : publicKey;
        String sk = stored != null && SecretMasking.mask(stored.secretKey).equals(secretKey) ? stored.secretKey
                : secretKey;
        for (String[] key : new String[][] {{"public_key", pk}, {"secret_key", sk}}) {
            if (key[1].contains(MASKED)) {
                throw new DomainRuleViolation("The " + key[0] + " appears to be masked. Please provide the actual value,"
                        + " not the masked value.");
            }
        }
        return new TracingCredentials(provider, host, pk, sk, projectId);
    }

    private static final String MASKED = "***";
}
