package dev.voiceagent.domain.model;

import java.util.List;
import java.util.Optional;

/** A provider of one model service (the reference's schema name, e.g. OpenAILLMService) and its settings. */
public record ModelProvider(ModelService service, String id, String schemaName, String description,
        List<ModelField> fields) {

    public ModelProvider {
        fields = List.copyOf(fields);
    }

    public Optional<ModelField> field(String name) {
        return fields.stream().filter(f -> f.name().equals(name)).findFirst();
    }
}
