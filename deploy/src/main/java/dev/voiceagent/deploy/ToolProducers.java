package dev.voiceagent.deploy;

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
    dev.voiceagent.application.knowledge.KnowledgeService knowledge(
            dev.voiceagent.application.knowledge.KnowledgeRepository documents,
            dev.voiceagent.application.storage.ObjectStore store,
            dev.voiceagent.application.model.ModelConfigurations models,
            dev.voiceagent.application.knowledge.Embeddings embeddings, Clock clock, VoiceAgentConfig config) {
        return new dev.voiceagent.application.knowledge.KnowledgeService(documents, store, models, embeddings, clock,
                config.knowledge().maxUploadBytes());
    }

    @Produces
    @Singleton
    dev.voiceagent.application.knowledge.ProcessDocumentsService processDocuments(
            dev.voiceagent.application.knowledge.KnowledgeRepository documents,
            dev.voiceagent.application.storage.ObjectStore store,
            dev.voiceagent.application.knowledge.DocumentText text,
            dev.voiceagent.application.model.ModelConfigurations models,
            dev.voiceagent.application.knowledge.Embeddings embeddings,
            dev.voiceagent.adapters.postgres.shared.ReplicaIdentity replica, VoiceAgentConfig config) {
        return new dev.voiceagent.application.knowledge.ProcessDocumentsService(documents, store, text, models,
                embeddings, replica.id(), config.knowledge().lease(), config.knowledge().maxUploadBytes());
    }
}
