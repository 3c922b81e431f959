package dev.voiceagent.adapters.rest.health;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.health.ServiceUnavailableException;
import dev.voiceagent.application.shared.ForbiddenException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DevopsSecretTest {

    @Test
    void noSecretConfiguredIs503WhateverIsSent() {
        for (Optional<String> none : java.util.List.of(Optional.<String>empty(), Optional.of(" "))) {
            assertThatThrownBy(() -> new DevopsSecret(none).check("anything", null))
                    .isInstanceOf(ServiceUnavailableException.class).hasMessage("Devops secret is not configured");
        }
    }

    @Test
    void aMissingOrWrongSecretIs403AndEitherHeaderWorks() {
        DevopsSecret secret = new DevopsSecret(Optional.of("s3cret"));
        assertThatThrownBy(() -> secret.check(null, null)).isInstanceOf(ForbiddenException.class).hasMessage("Forbidden");
        assertThatThrownBy(() -> secret.check("s3cre", null)).isInstanceOf(ForbiddenException.class);
        assertThatThrownBy(() -> secret.check("s3cret!", null)).isInstanceOf(ForbiddenException.class);
        assertThatCode(() -> secret.check("s3cret", null)).doesNotThrowAnyException();
        assertThatCode(() -> secret.check(null, "s3cret")).doesNotThrowAnyException();
    }
}
