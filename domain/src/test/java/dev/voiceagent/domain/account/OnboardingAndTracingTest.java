package dev.voiceagent.domain.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class OnboardingAndTracingTest {

    @Test
    void onboardingUpdatesSetScalarsAndUnionLists() {
        OnboardingState s = OnboardingState.NEW.updated(null, null, List.of("agents", "campaigns"), null)
                .updated(Instant.parse("2026-11-23T10:00:00Z"), null, List.of("campaigns", "keys"), List.of("signup"));
        assertThat(s.seenTooltips()).containsExactly("agents", "campaigns", "keys");
        assertThat(s.completedActions()).containsExactly("signup");
        assertThat(s.completedAt()).isNotNull();
        assertThat(s.skipped()).isFalse();
        assertThat(s.updated(null, true, null, null).skipped()).isTrue();
        assertThatThrownBy(() -> s.updated(null, null, List.of("x".repeat(101)), null)).hasMessageContaining("100");
    }

    @Test
    void tracingKeysAreMaskedAndKeptWhenSentBackMasked() {
        TracingCredentials stored = new TracingCredentials("langfuse", "https://cloud.langfuse.com", "pk-lf-1234",
                "sk-lf-5678", "proj");
        TracingCredentials shown = stored.masked();
        assertThat(shown.publicKey()).isEqualTo("******1234");
        TracingCredentials sentBack = new TracingCredentials("langfuse", "https://eu.langfuse.com", shown.publicKey(),
                "sk-lf-new", "proj");
        TracingCredentials saved = sentBack.restoredFrom(stored);
        assertThat(saved.publicKey()).isEqualTo("pk-lf-1234");
        assertThat(saved.secretKey()).isEqualTo("sk-lf-new");
        assertThatThrownBy(() -> new TracingCredentials("langfuse", "ftp://x", "a", "b", "c")).hasMessageContaining("host");
        assertThatThrownBy(() -> new TracingCredentials("langfuse", "https://x", "a", "b", " "))
                .hasMessageContaining("project_id");
    }
}
