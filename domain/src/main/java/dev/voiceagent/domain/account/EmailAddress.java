package dev.voiceagent.domain.account;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.Locale;
import java.util.regex.Pattern;

/** An e-mail address, trimmed and lower-cased so that uniqueness is case-insensitive. */
public record EmailAddress(String value) {

    private static final Pattern SHAPE = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");

    public EmailAddress {
        if (value == null || !SHAPE.matcher(value.strip()).matches() || value.strip().length() > 320) {
            throw new DomainRuleViolation("value is not a valid email address");
        }
        value = value.strip().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return value;
    }
}
