package dev.voiceagent.deploy;

import dev.voiceagent.application.conversation.ConversationTools;
import dev.voiceagent.application.tool.CredentialRepository;
import dev.voiceagent.application.tool.CredentialService;
import dev.voiceagent.application.tool.McpServers;
import dev.voiceagent.application.tool.ToolChecks;
import dev.voiceagent.application.tool.ToolHttp;
import dev.voiceagent.application.tool.ToolRepository;
import dev.voiceagent.application.tool.ToolService;
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
    CredentialService credentials(CredentialRepository repository, Clock clock) {
        return new CredentialService(repository, clock);
    }

    @Produces
    @Singleton
    ToolChecks toolChecks(ToolRepository tools) {
        return new ToolChecks(tools);
    }

    @Produces
    @Singleton
    ConversationTools conversationTools(ToolRepository tools, CredentialRepository credentials, ToolHttp http) {
        return new ConversationTools(tools, credentials, http);
    }

    @Produces
    @Singleton
    ToolService tools(ToolRepository tools, CredentialRepository credentials, ToolHttp http, McpServers mcp,
            Clock clock) {
        return new ToolService(tools, credentials, http, mcp, clock);
    }

    @Produces
    @Singleton
    dev.voiceagent.application.recording.RecordingService recordings(
            dev.voiceagent.application.recording.RecordingRepository recordings,
            dev.voiceagent.application.workflow.WorkflowRepository workflows,
            dev.voiceagent.application.storage.ObjectStore store,
            dev.voiceagent.application.model.ModelConfigurations models,
            dev.voiceagent.application.recording.SpeechToText speech, Clock clock) {
        return new dev.voiceagent.application.recording.RecordingService(recordings, workflows, store, models, speech,
                clock);
    }

    @Produces
    @Singleton
    dev.voiceagent.application.knowledge.KnowledgeService knowledge(
            dev.voiceagent.application.knowledge.KnowledgeRepository documents,
            dev.voiceagent.application.storage.ObjectStore store,
            dev.voiceagent.application.model.ModelConfigurations models,
            dev.voiceagent.application.knowledge.Embeddings embeddings, Clock clock,
            @org.eclipse.microprofile.config.inject.ConfigProperty(name = "voiceagent.knowledge.max-upload-bytes",
                    defaultValue = "104857600") long maxBytes) {
        return new dev.voiceagent.application.knowledge.KnowledgeService(documents, store, models, embeddings, clock,
                maxBytes);
    }

    @Produces
    @Singleton
    dev.voiceagent.application.knowledge.ProcessDocumentsService processDocuments(
            dev.voiceagent.application.knowledge.KnowledgeRepository documents,
            dev.voiceagent.application.storage.ObjectStore store,
            dev.voiceagent.application.knowledge.DocumentText text,
            dev.voiceagent.application.model.ModelConfigurations models,
            dev.voiceagent.application.knowledge.Embeddings embeddings,
            dev.voiceagent.adapters.postgres.shared.ReplicaIdentity replica,
            @org.eclipse.microprofile.config.inject.ConfigProperty(name = "voiceagent.knowledge.lease",
                    defaultValue = "PT5M") java.time.Duration lease,
            @org.eclipse.microprofile.config.inject.ConfigProperty(name = "voiceagent.knowledge.max-upload-bytes",
                    defaultValue = "104857600") long maxBytes) {
        return new dev.voiceagent.application.knowledge.ProcessDocumentsService(documents, store, text, models,
                embeddings, replica.id(), lease, maxBytes);
    }

    @Produces
    @Singleton
    dev.voiceagent.application.voice.VoiceCloneService voiceClones(
            dev.voiceagent.application.voice.VoiceCloneRepository clones,
            dev.voiceagent.application.recording.RecordingRepository recordings,
            dev.voiceagent.application.workflow.WorkflowRepository workflows,
            dev.voiceagent.application.workflow.UpdateWorkflowUseCase update,
            dev.voiceagent.application.storage.ObjectStore store,
            dev.voiceagent.application.model.ModelConfigurations models,
            dev.voiceagent.application.voice.VoiceCloning cloning, Clock clock) {
        return new dev.voiceagent.application.voice.VoiceCloneService(clones, recordings, workflows, update, store,
                models, cloning, clock);
    }

    @Produces
    @Singleton
    dev.voiceagent.application.docs.DocsAssistantService docsAssistant(dev.voiceagent.application.docs.DocsIndex index,
            dev.voiceagent.application.model.ModelConfigurations models,
            dev.voiceagent.application.conversation.LanguageModel languageModel) {
        return new dev.voiceagent.application.docs.DocsAssistantService(index, models, languageModel);
    }
}
