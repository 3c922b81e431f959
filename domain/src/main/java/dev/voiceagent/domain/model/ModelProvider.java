package dev.voiceagent.domain.model;

import java.util.List;
import java.util.Optional;

/**
 * A provider of one model service: the reference's schema name (e.g. OpenAILLMService), the name a person reads (its
 * schema's title, e.g. OpenAI) and its settings.
 */
public record ModelProvider(ModelService service, String id, String schemaName, String title, String description,
        List<ModelField> fields) {

    public ModelProvider {
        fields = List.copyOf(fields);
        title = title == null || title.isBlank() ? schemaName : title;
    }

    /** A provider titled by its schema name. */
    public ModelProvider(ModelService service, String id, String schemaName, String description,
            List<ModelField> fields) {
        this(service, id, schemaName, null, description, fields);
    }

    public Optional<ModelField> field(String name) {
        return fields.stream().filter(f -> f.name().equals(name)).findFirst();
    }
}
