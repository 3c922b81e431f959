package dev.voiceagent.domain.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RunUsageTest {

    private static final Map<String, Object> USAGE = Map.of("call_duration_seconds", 41.2, "llm", Map.of(
            "openai/gpt-4o", Map.of("prompt_tokens", 100, "completion_tokens", 20, "total_tokens", 120),
            "groq/llama", Map.of("prompt_tokens", 5, "completion_tokens", 1)));

    @Test
    void aTelephoneCallIsBilledTheCallLedgersSeconds() {
        assertThat(RunUsage.of("twilio", 37, USAGE)).isEqualTo(new RunUsage(37, 105, 21));
        assertThat(RunUsage.of("twilio", null, USAGE).callSeconds()).isZero(); // no call placed: no call time
    }

    @Test
    void aBrowserVoiceSessionIsBilledItsOwnDurationRoundedUp() {
        assertThat(RunUsage.of("webrtc", null, USAGE).callSeconds()).isEqualTo(42);
    }

    @Test
    void aTextChatHasTokensButNoCallTime() {
        assertThat(RunUsage.of("textchat", null, USAGE)).isEqualTo(new RunUsage(0, 105, 21));
        assertThat(RunUsage.of("textchat", null, null)).isEqualTo(new RunUsage(0, 0, 0));
    }
}
