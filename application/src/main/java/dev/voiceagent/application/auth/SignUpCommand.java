package dev.voiceagent.application.auth;

import dev.voiceagent.domain.account.EmailAddress;
import dev.voiceagent.domain.account.PasswordPolicy;
import java.util.Objects;

public record SignUpCommand(EmailAddress email, String password, String name) {

    public SignUpCommand {
        Objects.requireNonNull(email, "email");
        PasswordPolicy.check(password);
        name = name == null || name.isBlank() ? null : name.strip();
    }
}
