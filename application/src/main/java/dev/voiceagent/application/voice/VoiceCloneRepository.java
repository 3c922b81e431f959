package dev.voiceagent.application.voice;

import dev.voiceagent.domain.voice.VoiceClone;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;

/** Out-port: an organization's voice clones, and which workflows speak with them. */
public interface VoiceCloneRepository {

    /** A workflow whose draft or published configuration names a voice (the clone's id, or null for another voice). */
    record AgentVoice(long workflowId, String workflowName, Long draftCloneId, Long publishedCloneId,
            String providerVoiceId) {
    }

    Uni<List<VoiceClone>> list(long organizationId);

    Uni<Optional<VoiceClone>> find(long organizationId, long id);

    Uni<VoiceClone> insert(VoiceClone clone);

    /** Deletes the clone unless a published version's configuration names it; then the workflows' names (one statement). */
    Uni<List<String>> deleteUnlessUsed(long organizationId, long id);

    /** The organization's workflows whose draft or published configuration sets a voice (one statement). */
    Uni<List<AgentVoice>> agents(long organizationId);
}
