package dev.voiceagent.adapters.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.workflow.ArtifactLinks.Link;
import dev.voiceagent.domain.workflow.RunArtifact;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SignedArtifactLinksTest {

    private final SignedArtifactLinks links = new SignedArtifactLinks("k".repeat(32).getBytes());
    private static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

    @Test
    void aTokenNamesItsRunAndArtifactUntilItExpires() {
        String token = links.token(42, RunArtifact.TRANSCRIPT, NOW.plusSeconds(60));
        assertThat(links.verify(token, NOW)).contains(new Link(42, RunArtifact.TRANSCRIPT));
        assertThat(links.verify(token, NOW.plusSeconds(61))).isEmpty();
    }

    @Test
    void aChangedRunAnotherKeyOrGarbageIsRefused() {
        String token = links.token(42, RunArtifact.RECORDING, NOW.plusSeconds(60));
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(("43.recording."
                + NOW.plusSeconds(60).getEpochSecond()).getBytes()) + token.substring(token.indexOf('.'));
        assertThat(links.verify(forged, NOW)).isEmpty();
        assertThat(new SignedArtifactLinks("x".repeat(32).getBytes()).verify(token, NOW)).isEmpty();
        for (String garbage : new String[] {"", ".", "abc", "a.b.c", "%%%.###", token + "x", null}) {
            assertThat(links.verify(garbage, NOW)).as(garbage).isEmpty();
        }
    }
}
