package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.ProviderConfiguration;

/** What a gateway needs to place a call for a run. */
public record OutboundCall(ProviderConfiguration configuration, long runId, String from, String to) {
}
