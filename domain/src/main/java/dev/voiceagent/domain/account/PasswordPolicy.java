package dev.voiceagent.domain.account;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.nio.charset.StandardCharsets;

/** Rules a new password must satisfy before it is hashed. */
public final class PasswordPolicy {

    public static final int MIN_LENGTH = 8;
    /** bcrypt only reads the first 72 bytes; longer input would silently be truncated. */
    public static final int MAX_BYTES = 72;

    private PasswordPolicy() {
    }

    public static void check(String password) {
        if (password == null || password.length() < MIN_LENGTH) {
            throw new DomainRuleViolation("Password must be at least " + MIN_LENGTH + " characters");
        }
        if (password.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw new DomainRuleViolation("Password must be at most " + MAX_BYTES + " bytes");
        }
    }
}
