package dev.voiceagent.adapters.outbound;

import dev.voiceagent.application.knowledge.Embeddings;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.OutboundRefusedException;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * OpenAI-compatible POST {base}/embeddings ({model, input: [...]}, Bearer key; Azure: its deployment path and
 * api-key header) in batches of {@link #BATCH}, one batch after another; the vectors come back in input order
 * (by each item's index).
 */
@Singleton
public class EmbeddingsClient implements Embeddings {

    static final int BATCH = 64;

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final Duration limit;

    public EmbeddingsClient(GuardedHttp http, ProviderApis apis,
            @ConfigProperty(name = "voiceagent.models.upload-timeout", defaultValue = "PT60S") Duration limit) {
        this.http = http;
        this.apis = apis;
        this.limit = limit;
    }

    private record Target(String url, Map<String, String> headers, boolean guarded) {
    }

    @Override
    public Uni<List<float[]>> embed(ModelEndpoint endpoint, List<String> texts) {
        Target target = target(endpoint);
        List<List<String>> batches = new ArrayList<>();
        for (int i = 0; i < texts.size(); i += BATCH) {
            batches.add(texts.subList(i, Math.min(texts.size(), i + BATCH)));
        }
        return Multi.createFrom().iterable(batches).concatMap(batch -> batch(endpoint, target, batch).toMulti())
                .collect().asList().map(lists -> {
                    List<float[]> out = new ArrayList<>();
                    lists.forEach(out::addAll);
                    return out;
                });
    }

    private Target target(ModelEndpoint endpoint) {
        String key = endpoint.apiKey();
        Map<String, String> bearer = key == null ? Map.of() : Map.of("Authorization", "Bearer " + key);
        if (endpoint.managed()) {
            return new Target(ProviderApis.trim(endpoint.baseUrl()) + "/embeddings", bearer, false);
        }
        String own = ProviderApis.own(endpoint);
        return switch (endpoint.provider()) {
            case "openai" -> own != null ? new Target(own + "/embeddings", bearer, true)
                    : new Target(apis.openai + "/embeddings", bearer, false);
            case "openrouter" -> new Target((own != null ? own : ProviderApis.catalogDefault(endpoint)
                    .orElse("https://openrouter.ai/api/v1")) + "/embeddings", bearer, true);
            case "azure" -> {
                String resource = endpoint.baseUrl();
                if (resource == null || resource.isBlank()) {
                    throw new DomainRuleViolation("Azure OpenAI embeddings need their endpoint");
                }
                Object version = endpoint.settings().getOrDefault("api_version", "2024-02-15-preview");
                yield new Target(ProviderApis.trim(resource.strip()) + "/openai/deployments/"
                        + URLEncoder.encode(String.valueOf(endpoint.model()), StandardCharsets.UTF_8)
                        + "/embeddings?api-version=" + URLEncoder.encode(String.valueOf(version), StandardCharsets.UTF_8),
                        key == null ? Map.of() : Map.of("api-key", key), true);
            }
            default -> throw new DomainRuleViolation("The " + ProviderApis.display(endpoint.provider())
                    + " embeddings model is not supported here: use openai (any OpenAI-compatible base URL),"
                    + " openrouter, azure or the managed models");
        };
    }

    private Uni<List<float[]>> batch(ModelEndpoint endpoint, Target target, List<String> texts) {
        JsonObject body = new JsonObject().put("input", new JsonArray(new ArrayList<>(texts)));
        if (!"azure".equals(endpoint.provider())) {
            body.put("model", endpoint.model() == null ? "text-embedding-3-small" : endpoint.model());
        }
        return http.postJson(target.url(), target.headers(), body.encode(), limit, target.guarded())
                .onFailure(GuardedHttp.Refused.class).transform(f -> new OutboundRefusedException(f.getMessage()))
                .onFailure(GuardedHttp.Unreachable.class).transform(f -> new UpstreamServiceException(
                        ProviderApis.display(endpoint.provider()) + " embeddings: " + f.getMessage()))
                .map(reply -> {
                    if (reply.status() / 100 != 2) {
                        String message = ProviderChecks.message(reply.body());
                        throw new UpstreamServiceException(ProviderApis.display(endpoint.provider())
                                + " refused the embeddings (HTTP " + reply.status() + ")"
                                + (message == null ? "" : ": " + message));
                    }
                    JsonArray data;
                    try {
                        data = new JsonObject(reply.body()).getJsonArray("data");
                    } catch (DecodeException | ClassCastException e) {
                        throw new UpstreamServiceException(ProviderApis.display(endpoint.provider())
                                + " answered embeddings that are not JSON");
                    }
                    if (data == null || data.size() != texts.size()) {
                        throw new UpstreamServiceException(ProviderApis.display(endpoint.provider()) + " answered "
                                + (data == null ? 0 : data.size()) + " embeddings for " + texts.size() + " texts");
                    }
                    float[][] out = new float[texts.size()][];
                    for (int i = 0; i < data.size(); i++) {
                        JsonObject item = data.getJsonObject(i);
                        int index = item.getInteger("index", i);
                        JsonArray vector = item.getJsonArray("embedding");
                        if (index < 0 || index >= out.length || vector == null) {
                            throw new UpstreamServiceException("Malformed embeddings answer");
                        }
                        float[] v = new float[vector.size()];
                        for (int j = 0; j < v.length; j++) {
                            v[j] = vector.getNumber(j).floatValue();
                        }
                        out[index] = v;
                    }
                    for (float[] v : out) {
                        if (v == null) {
                            throw new UpstreamServiceException("Malformed embeddings answer: an input has no vector");
                        }
                    }
                    return List.of(out);
                });
    }
}
