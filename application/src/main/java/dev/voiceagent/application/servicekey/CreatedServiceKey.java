package dev.voiceagent.application.servicekey;

import dev.voiceagent.domain.servicekey.ServiceKey;

/** A new service key and its raw value, shown this once. */
public record CreatedServiceKey(ServiceKey key, String rawKey) {
}
