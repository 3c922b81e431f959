package dev.voiceagent.application.voice;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.voice.VoiceClone;
import io.smallrye.mutiny.Uni;
import java.util.List;

/** Voice clones: capabilities, create, list, preview, the agents' voices, use in a workflow, delete. */
public interface VoiceCloneUseCases {

    /** One provider's answer to "can it clone?". */
    record ProviderCapability(String provider, boolean canClone, String reason, boolean configured) {
    }

    record Capabilities(String configuredProvider, boolean canClone, List<ProviderCapability> providers) {
    }

    record Preview(String audioUrl, String storageKey, int expiresInSeconds) {
    }

    interface GetVoiceCloneCapabilitiesUseCase {

        Uni<Capabilities> capabilities(Principal principal);
    }

    interface ListVoiceClonesUseCase {

        Uni<List<VoiceClone>> list(Principal principal);
    }

    interface CreateVoiceCloneUseCase {

        Uni<VoiceClone> create(Principal principal, String name, String description, List<String> recordingIds,
                String provider);
    }

    interface PreviewVoiceCloneUseCase {

        Uni<Preview> preview(Principal principal, long id, String text);
    }

    interface ListCloneVoicedAgentsUseCase {

        Uni<List<VoiceCloneRepository.AgentVoice>> agents(Principal principal);
    }

    interface UseVoiceCloneInWorkflowUseCase {

        /** Sets the clone as the voice of the workflow's draft (a draft is made if there is none). */
        Uni<Void> useInWorkflow(Principal principal, long workflowId, long cloneId);
    }

    interface DeleteVoiceCloneUseCase {

        /** 409 while a published version speaks with it. */
        Uni<Void> delete(Principal principal, long id);
    }
}
