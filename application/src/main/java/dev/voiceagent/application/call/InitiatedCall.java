package dev.voiceagent.application.call;

public record InitiatedCall(long runId, String runName, String providerCallId) {
}
