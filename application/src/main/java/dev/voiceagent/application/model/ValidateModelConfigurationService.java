package dev.voiceagent.application.model;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks the keys of the effective configuration for real, with the provider: the language model, then
 * speech (or the realtime model), embeddings when configured, side by side. A missing service, a refused
 * key or an unreachable provider is a status naming the service and what the provider said. A
 * configuration found valid is trusted for the validity the caller asks (per replica, bounded).
 */
@Singleton
public class ValidateModelConfigurationService implements ValidateModelConfigurationUseCase {

    static final String MISSING = "API key is missing";

    private static final int MAX_ENTRIES = 10_000;
    /** The longest validity a caller may ask for; older entries are of no use. */
    private static final Duration LONGEST = Duration.ofDays(1);

    /** An organization's configuration (compared by content, keys included) found valid, and when. */
    private record Valid(long organizationId, Map<String, Object> configuration) {
    }

    private final ModelConfigurations configurations;
    private final ModelProviderCheck checks;
    private final Clock clock;
    private final Map<Valid, Instant> validAt = new ConcurrentHashMap<>();

    public ValidateModelConfigurationService(ModelConfigurations configurations, ModelProviderCheck checks,
            Clock clock) {
        this.configurations = configurations;
        this.checks = checks;
        this.clock = clock;
    }

    @Override
    public Uni<List<ServiceStatus>> validate(Principal principal, Duration validity) {
        return configurations.resolve(principal.organizationId(), principal.userId()).chain(resolved -> {
            // keyed by content: a changed key or base URL is asked again at once
            Valid key = new Valid(principal.organizationId(), resolved.effective().toMap());
            Instant now = clock.instant();
            Instant checked = validAt.get(key);
            if (checked != null && now.isBefore(checked.plus(validity))) {
                return Uni.createFrom().item(List.<ServiceStatus>of());
            }
            return check(resolved).invoke(problems -> {
                if (problems.isEmpty()) {
                    if (validAt.size() >= MAX_ENTRIES) {
                        validAt.entrySet().removeIf(e -> e.getValue().plus(LONGEST).isBefore(now));
                        if (validAt.size() >= MAX_ENTRIES) {
                            validAt.clear();
                        }
                    }
                    validAt.put(key, now);
                } else {
                    validAt.remove(key);
                }
            });
        });
    }

    private Uni<List<ServiceStatus>> check(ResolvedModels resolved) {
        List<ModelService> required = resolved.effective().realtimeMode()
                ? List.of(ModelService.LLM, ModelService.REALTIME)
                : List.of(ModelService.LLM, ModelService.STT, ModelService.TTS);
        List<Uni<Optional<ServiceStatus>>> statuses = new ArrayList<>();
        for (ModelService service : required) {
            statuses.add(check(resolved, service, true));
        }
        statuses.add(check(resolved, ModelService.EMBEDDINGS, false));
        return Uni.join().all(statuses).andCollectFailures()
                .map(all -> all.stream().flatMap(Optional::stream).toList());
    }

    private Uni<Optional<ServiceStatus>> check(ResolvedModels resolved, ModelService service, boolean required) {
        Optional<ModelEndpoint> endpoint;
        try {
            endpoint = resolved.endpoint(service);
        } catch (DomainRuleViolation unavailable) {
            return Uni.createFrom().item(Optional.of(new ServiceStatus(service.wireName(), unavailable.getMessage())));
        }
        if (endpoint.isEmpty()) {
            return Uni.createFrom().item(required ? Optional.of(new ServiceStatus(service.wireName(), MISSING))
                    : Optional.empty());
        }
        return checks.problem(endpoint.get())
                .map(problem -> problem.map(message -> new ServiceStatus(service.wireName(), message)));
    }
}
