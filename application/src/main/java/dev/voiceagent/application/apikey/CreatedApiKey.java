package dev.voiceagent.application.apikey;

import dev.voiceagent.domain.apikey.ApiKey;
import dev.voiceagent.domain.apikey.ApiKeySecret;

/** A newly issued key together with its raw value, which is shown this once and never stored. */
public record CreatedApiKey(ApiKey key, ApiKeySecret secret) {
}
