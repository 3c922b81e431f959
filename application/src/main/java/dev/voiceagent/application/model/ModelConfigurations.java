package dev.voiceagent.application.model;

import io.smallrye.mutiny.Uni;

/**
 * Which models an organization's agents use: its v2 configuration, else the calling user's legacy one.
 * The conversation, knowledge and voice features call models through the endpoints this resolves.
 */
public interface ModelConfigurations {

    Uni<ResolvedModels> resolve(long organizationId, long userId);
}
