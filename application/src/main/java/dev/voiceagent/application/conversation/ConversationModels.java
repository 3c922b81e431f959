package dev.voiceagent.application.conversation;

import dev.voiceagent.application.model.ModelConfigurations;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The language model a conversation uses: the organization's configured one; when it has none, the
 * installation's fallback (the local run falls back to the simulator), else a 400 saying what to configure.
 */
public class ConversationModels {

    static final String NONE = "No language model is configured for this organization: set one in the model"
            + " configuration (PUT /api/v1/organizations/model-configurations/v2), e.g. an OpenAI-compatible provider"
            + " or the simulator";

    private final ModelConfigurations configurations;
    private final String fallbackProvider;

    /** @param fallbackProvider the provider used when an organization has none (e.g. "simulator"); null for none */
    public ConversationModels(ModelConfigurations configurations, String fallbackProvider) {
        this.configurations = configurations;
        this.fallbackProvider = fallbackProvider == null || fallbackProvider.isBlank() ? null : fallbackProvider;
    }

    /** The language model of a workflow: the organization's, with the workflow's model_overrides over it. */
    public Uni<ModelEndpoint> languageModel(long organizationId, long userId,
            Map<String, Object> workflowConfigurations) {
        return languageModels(organizationId, userId, workflowConfigurations).map(List::getFirst);
    }

    /** The language models of a workflow's calls: the configured one first, then the fallbacks it names. */
    public Uni<List<ModelEndpoint>> languageModels(long organizationId, long userId,
            Map<String, Object> workflowConfigurations) {
        return configurations.resolve(organizationId, userId).map(r -> r.forWorkflow(workflowConfigurations))
                .map(resolved -> orFallback(resolved.endpoints(ModelService.LLM), ModelService.LLM, NONE));
    }

    /**
     * The speech model for {@code service} (stt or tts): the organization's, with the workflow's model_overrides (a
     * voice chosen per workflow) over it; when it has none, the installation's fallback provider (the local run's
     * simulator), else a 400 saying what to configure.
     */
    public Uni<ModelEndpoint> speech(long organizationId, long userId, ModelService service,
            Map<String, Object> workflowConfigurations) {
        return speeches(organizationId, userId, service, workflowConfigurations).map(List::getFirst);
    }

    /** The speech models for {@code service} (stt or tts) of a workflow's calls, as above: the fallbacks after it. */
    public Uni<List<ModelEndpoint>> speeches(long organizationId, long userId, ModelService service,
            Map<String, Object> workflowConfigurations) {
        return configurations.resolve(organizationId, userId).map(r -> r.forWorkflow(workflowConfigurations))
                .map(resolved -> orFallback(resolved.endpoints(service), service, "No "
                        + (service == ModelService.STT ? "speech-to-text" : "text-to-speech") + " model is configured"
                        + " for this organization: set one in the model configuration (PUT"
                        + " /api/v1/organizations/model-configurations/v2)"));
    }

    /** The endpoints, or the installation's fallback provider when none is configured, else {@code none} refused. */
    private List<ModelEndpoint> orFallback(List<ModelEndpoint> endpoints, ModelService service, String none) {
        if (!endpoints.isEmpty()) {
            return endpoints;
        }
        if (fallbackProvider == null) {
            throw new DomainRuleViolation(none);
        }
        return List.of(new ModelEndpoint(service, fallbackProvider, fallbackProvider, null, List.of(),
                Map.of("provider", fallbackProvider), false));
    }

    /**
     * The workflow's speech-to-speech model when its models are a realtime configuration (byok.realtime, or a workflow
     * whose model_overrides say is_realtime); empty for a pipeline.
     */
    public Uni<Optional<ModelEndpoint>> realtime(long organizationId, long userId,
            Map<String, Object> workflowConfigurations) {
        return configurations.resolve(organizationId, userId).map(r -> r.forWorkflow(workflowConfigurations))
                .map(resolved -> {
                    if (!resolved.effective().realtimeMode()) {
                        return Optional.<ModelEndpoint>empty();
                    }
                    return Optional.of(resolved.endpoint(ModelService.REALTIME).orElseThrow(() ->
                            new DomainRuleViolation("The model configuration is a realtime one but names no"
                                    + " speech-to-speech model: set byok.realtime.realtime")));
                });
    }

    /** How the run's usage names a model: provider/model. */
    public static String key(ModelEndpoint endpoint) {
        return endpoint.provider() + "/" + (endpoint.model() == null ? "default" : endpoint.model());
    }
}
