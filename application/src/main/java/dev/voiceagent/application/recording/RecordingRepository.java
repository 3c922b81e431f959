package dev.voiceagent.application.recording;

import dev.voiceagent.domain.recording.Recording;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;

/** Out-port: an organization's active recordings. A recording id taken in the organization is a ConflictException. */
public interface RecordingRepository {

    /** The filters a list takes; a null one matches all. */
    record Filter(Long workflowId, String ttsProvider, String ttsModel, String ttsVoiceId) {
    }

    /** Newest first, one statement. */
    Uni<List<Recording>> list(long organizationId, Filter filter);

    Uni<Optional<Recording>> find(long organizationId, long id);

    Uni<Optional<Recording>> findByRecordingId(long organizationId, String recordingId);

    /** All or none (one transaction). */
    Uni<List<Recording>> insertAll(List<Recording> recordings);

    Uni<Recording> rename(long organizationId, long id, String recordingId);

    /**
     * Deactivates the recording unless the published version of one of the organization's workflows names it;
     * then nothing changes and the answer names those workflows (one statement).
     */
    Uni<List<String>> deactivateUnlessUsed(long organizationId, String recordingId);
}
