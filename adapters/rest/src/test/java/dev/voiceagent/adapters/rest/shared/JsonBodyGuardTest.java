package dev.voiceagent.adapters.rest.shared;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonBodyGuardTest {

    private static ValidationError check(String json) {
        return JsonBodyGuard.check(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aNulCharacterInAnyTextIsNamedByItsPath() {
        assertThat(check("{\"name\": \"a\\u0000b\"}").loc()).containsExactly("body", "name");
        assertThat(check("{\"config\": {\"rules\": [{\"suffix\": \"1\"}, {\"suffix\": \"\\u0000\"}]}}").loc())
                .containsExactly("body", "config", "rules", 1, "suffix");
        assertThat(check("{\"vars\": {\"k\\u0000\": 1}}").loc()).containsExactly("body", "vars", "k\u0000");
        assertThat(check("\"\\u0000\"").loc()).containsExactly("body");
        assertThat(check("{\"name\": \"\\u0000\"}").type()).isEqualTo("string_nul_character");
    }

    @Test
    void anEscapedBackslashFollowedByU0000IsNotANul() {
        assertThat(check("{\"name\": \"C:\\\\u0000\"}")).isNull();
    }

    @Test
    void nestingDeeperThanTheLimitIsNamedByTheFieldHoldingIt() {
        String deep = "[".repeat(5000) + "]".repeat(5000);
        ValidationError error = check("{\"name\": \"ok\", \"payload\": " + deep + "}");
        assertThat(error.loc()).containsExactly("body", "payload");
        assertThat(error.type()).isEqualTo("json_too_deep");
        assertThat(check(deep).loc()).containsExactly("body");
        String atTheLimit = "[".repeat(JsonBodyGuard.MAX_DEPTH) + "]".repeat(JsonBodyGuard.MAX_DEPTH);
        assertThat(check(atTheLimit)).isNull();
        assertThat(check("[" + atTheLimit + "]")).isNotNull();
    }

    @Test
    void ordinaryAndMalformedBodiesPass() {
        assertThat(check("{\"name\": \"Ann\", \"n\": [1, 2, {\"x\": null}], \"t\": true}")).isNull();
        assertThat(check("{\"name\": ")).isNull(); // the JSON reader reports it
        assertThat(check("[]")).isNull();
        assertThat(check("{}")).isNull();
    }
}
