package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.domain.conversation.TokenUsage;
import java.util.Map;

/**
 * What the fallback providers served on a call (on this replica), by usage key (provider/model): seconds of the
 * caller's audio recognized, characters spoken, the language model's tokens. The configured providers served the rest
 * of the call's totals.
 */
public record ProviderShares(Map<String, Double> speechSeconds, Map<String, Long> characters,
        Map<String, TokenUsage> tokens) {

    public static final ProviderShares NONE = new ProviderShares(Map.of(), Map.of(), Map.of());

    public ProviderShares {
        speechSeconds = Map.copyOf(speechSeconds);
        characters = Map.copyOf(characters);
        tokens = Map.copyOf(tokens);
    }
}
