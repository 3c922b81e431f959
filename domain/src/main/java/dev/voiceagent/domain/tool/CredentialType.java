package dev.voiceagent.domain.tool;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** How a credential authenticates a request: the fields each type needs, and which of them are secret. */
public enum CredentialType {
    NONE(List.of(), List.of()),
    API_KEY(List.of("header_name", "api_key"), List.of("api_key")),
    BEARER_TOKEN(List.of("token"), List.of("token")),
    BASIC_AUTH(List.of("username", "password"), List.of("password")),
    CUSTOM_HEADER(List.of("header_name", "header_value"), List.of("header_value"));

    private final List<String> fields;
    private final List<String> secrets;

    CredentialType(List<String> fields, List<String> secrets) {
        this.fields = fields;
        this.secrets = secrets;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public List<String> fields() {
        return fields;
    }

    public List<String> secrets() {
        return secrets;
    }

    public static Optional<CredentialType> byWireName(String name) {
        for (CredentialType type : values()) {
            if (type.wireName().equals(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
