package dev.voiceagent.application.model;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Out-port: the organization's model configuration (v2) and each user's legacy one (v1), kept sealed
 * (they hold provider keys).
 */
public interface ModelConfigurationRepository {

    Uni<Optional<Map<String, Object>>> organizationConfiguration(long organizationId);

    Uni<Void> saveOrganizationConfiguration(long organizationId, Map<String, Object> configuration, Instant at);

    Uni<Optional<Map<String, Object>>> userConfiguration(long organizationId, long userId);

    Uni<Void> saveUserConfiguration(long organizationId, long userId, Map<String, Object> configuration, Instant at);
}
