package dev.voiceagent.application.account;

/**
 * The caller's organization and what it has set up: the reference's context (its id and provider id,
 * where its models come from) plus the user and the readiness a dashboard shows on every page.
 */
public record OrganizationContext(long organizationId, String organizationProviderId, long userId, String email,
        String modelSource, boolean modelConfigurationV2, boolean managedModels, boolean telephonyReadyForOutbound,
        int telephonyConfigurations, int activeApiKeys) {
}
