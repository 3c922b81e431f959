package dev.voiceagent.application.recording;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.recording.Recording;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;

/** Recorded audio prompts: upload, record, list, rename, delete, transcribe. */
public final class RecordingUseCases {

    private RecordingUseCases() {
    }

    public record FileToUpload(String filename, String mimeType, long fileSize) {
    }

    public record Upload(String uploadUrl, String recordingId, String storageKey) {
    }

    public record NewRecording(String recordingId, Long workflowId, String ttsProvider, String ttsModel,
            String ttsVoiceId, String transcript, String storageKey, Map<String, Object> metadata) {
    }

    public record Transcription(String transcript, String language, String provider, String model,
            Double durationSeconds) {
    }

    public interface RecordingsUseCase {
        Uni<List<Upload>> uploadUrls(Principal principal, List<FileToUpload> files);

        Uni<List<Recording>> create(Principal principal, List<NewRecording> recordings);

        Uni<List<Recording>> list(Principal principal, RecordingRepository.Filter filter);

        Uni<Recording> rename(Principal principal, long id, String recordingId);

        /** 409 naming the workflows whose published version uses it. */
        Uni<Void> delete(Principal principal, String recordingId);

        Uni<Transcription> transcribe(Principal principal, byte[] audio, String contentType, String language);
    }
}
