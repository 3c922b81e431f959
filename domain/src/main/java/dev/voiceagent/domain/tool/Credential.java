package dev.voiceagent.domain.tool;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.SecretMasking;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A credential a tool (or an MCP server, a transfer resolver) authenticates with. Its data holds exactly the
 * fields of its type; the secret ones are sealed at rest, masked on output, and a masked value sent back keeps
 * the stored one.
 */
public record Credential(Long id, long organizationId, String uuid, String name, String description,
        CredentialType type, Map<String, String> data, Instant createdAt, Instant updatedAt) {

    public static final int MAX_NAME = 255;
    public static final int MAX_DESCRIPTION = 2_000;
    public static final int MAX_VALUE = 8_192;
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
    private static final String MASK_MARK = "***";

    public Credential {
        if (name == null || name.isBlank()) {
            throw new DomainRuleViolation("name is required");
        }
        name = name.strip();
        if (name.length() > MAX_NAME) {
            throw new DomainRuleViolation("name must be at most " + MAX_NAME + " characters");
        }
        if (description != null && description.length() > MAX_DESCRIPTION) {
            throw new DomainRuleViolation("description must be at most " + MAX_DESCRIPTION + " characters");
        }
        data = checked(type, data);
    }

    /**
     * The data a request sends, kept to its type's fields: a missing or empty field is a 400 naming the fields
     * the type needs; a value that still looks masked is refused rather than stored.
     */
    static Map<String, String> checked(CredentialType type, Map<String, String> data) {
        if (type == null) {
            throw new DomainRuleViolation("credential_type is required");
        }
        Map<String, String> in = data == null ? Map.of() : data;
        Map<String, String> out = new LinkedHashMap<>();
        for (String field : type.fields()) {
            String value = in.get(field);
            if (value == null || value.isBlank()) {
                throw new DomainRuleViolation("credential_data for " + type.wireName() + " requires "
                        + String.join(" and ", type.fields()) + " (missing " + field + ")");
            }
            if (value.length() > MAX_VALUE) {
                throw new DomainRuleViolation("credential_data." + field + " must be at most " + MAX_VALUE + " characters");
            }
            if (value.contains("\r") || value.contains("\n")) {
                throw new DomainRuleViolation("credential_data." + field + " must be a single line");
            }
            if (field.equals("header_name") && !HEADER_NAME.matcher(value).matches()) {
                throw new DomainRuleViolation("credential_data.header_name must be an HTTP header name");
            }
            if (type.secrets().contains(field) && value.contains(MASK_MARK)) {
                throw new DomainRuleViolation("credential_data." + field + " appears to be masked. Please provide the"
                        + " actual value, not the masked value.");
            }
            out.put(field, value);
        }
        return Map.copyOf(out);
    }

    /** The data as shown: the secret fields masked. */
    public Map<String, String> maskedData() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String field : type.fields()) {
            String value = data.get(field);
            out.put(field, type.secrets().contains(field) ? SecretMasking.mask(value) : value);
        }
        return out;
    }

    /**
     * Incoming data of the same type whose secret fields, when sent back exactly as shown, are the stored ones.
     * Data of another type replaces everything.
     */
    public static Map<String, String> restore(CredentialType type, Map<String, String> incoming, Credential stored) {
        if (incoming == null || stored == null || stored.type() != type) {
            return incoming;
        }
        Map<String, String> out = new LinkedHashMap<>(incoming);
        for (String field : type.secrets()) {
            String sent = incoming.get(field);
            String old = stored.data().get(field);
            if (sent != null && old != null && SecretMasking.mask(old).equals(sent)) {
                out.put(field, old);
            }
        }
        return out;
    }

    /** The headers that authenticate a request with this credential. */
    public Map<String, String> headers() {
        return switch (type) {
            case NONE -> Map.of();
            case API_KEY -> Map.of(data.get("header_name"), data.get("api_key"));
            case BEARER_TOKEN -> Map.of("Authorization", "Bearer " + data.get("token"));
            case BASIC_AUTH -> Map.of("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (data.get("username") + ":" + data.get("password")).getBytes(StandardCharsets.UTF_8)));
            case CUSTOM_HEADER -> Map.of(data.get("header_name"), data.get("header_value"));
        };
    }
}
