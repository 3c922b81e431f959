package dev.voiceagent.deploy;

import dev.voiceagent.adapters.postgres.shared.ReplicaIdentity;
import dev.voiceagent.application.knowledge.DocumentText;
import dev.voiceagent.application.knowledge.Embeddings;
import dev.voiceagent.application.knowledge.KnowledgeRepository;
import dev.voiceagent.application.knowledge.KnowledgeService;
import dev.voiceagent.application.knowledge.ProcessDocumentsService;
import dev.voiceagent.application.model.ModelConfigurations;
import dev.voiceagent.application.storage.ObjectStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * Credentials, tools and recordings; the outbound ports (tool HTTP, MCP servers, speech to text) are the models
 * adapter's guarded ones.
 */
@ApplicationScoped
public class ToolProducers {

    @Produces
    @Singleton
    KnowledgeService knowledge(KnowledgeRepository documents, ObjectStore store, ModelConfigurations models,
            Embeddings embeddings, Clock clock, VoiceAgentConfig config) {
        return new KnowledgeService(documents, store, models, embeddings, clock, config.knowledge().maxUploadBytes());
    }

    @Produces
    @Singleton
    ProcessDocumentsService processDocuments(KnowledgeRepository documents, ObjectStore store, DocumentText text,
            ModelConfigurations models, Embeddings embeddings, ReplicaIdentity replica, VoiceAgentConfig config) {
        return new ProcessDocumentsService(documents, store, text, models,
                embeddings, replica.id(), config.knowledge().lease(), config.knowledge().maxUploadBytes());
    }
}
