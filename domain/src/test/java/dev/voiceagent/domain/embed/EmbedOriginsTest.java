package dev.voiceagent.domain.embed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbedOriginsTest {

    private static final List<String> DOMAINS = List.of("example.com", "*.acme.io", "localhost:3000", "www.shop.de");

    @Test
    void theOriginMatrix() {
        for (String ok : List.of("https://example.com", "http://www.example.com", "https://example.com/page?x=1",
                "https://acme.io", "https://a.b.acme.io", "http://localhost:3000", "https://shop.de",
                "https://www.shop.de:443", "https://EXAMPLE.com")) {
            assertThat(EmbedOrigins.allowed(ok, DOMAINS)).as(ok).isTrue();
        }
        for (String no : List.of("https://evil.com", "https://example.com.evil.com", "https://notacme.io",
                "http://localhost:3001", "http://localhost", "https://sub.example.com", "", "not a url at all ::",
                "https://shop.de.evil.io")) {
            assertThat(EmbedOrigins.allowed(no, DOMAINS)).as(no).isFalse();
        }
        assertThat(EmbedOrigins.allowed(null, DOMAINS)).isFalse();
        assertThat(EmbedOrigins.allowed("https://anything.example", List.of())).isTrue();
        assertThat(EmbedOrigins.allowed("https://anything.example", List.of("*"))).isTrue();
        assertThat(EmbedOrigins.allowed(null, List.of())).isTrue();
    }

    @Test
    void aPagesContextKeepsOnlyShortScalarsNamedLikeVariables() {
        Map<String, Object> clean = EmbedSessions.sanitizedContext(Map.of("first_name", "Ann", "age", 42, "vip", true,
                "bad key", "x", "nested", Map.of("a", 1), "long", "x".repeat(1001), "nul", "a\u0000b"));
        assertThat(clean).containsOnlyKeys("first_name", "age", "vip");
    }
}
