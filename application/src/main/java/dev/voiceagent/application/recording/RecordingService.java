package dev.voiceagent.application.recording;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.model.ModelConfigurations;
import dev.voiceagent.application.recording.RecordingUseCases.FileToUpload;
import dev.voiceagent.application.recording.RecordingUseCases.NewRecording;
import dev.voiceagent.application.recording.RecordingUseCases.RecordingsUseCase;
import dev.voiceagent.application.recording.RecordingUseCases.Transcription;
import dev.voiceagent.application.recording.RecordingUseCases.Upload;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.recording.Recording;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.storage.ObjectKeys;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Recordings: signed upload URLs per file (audio, at most 5 MB), records for uploaded files (the file must be
 * there, under the organization's own prefix), renames, deletes refused while a published version names the
 * recording, and transcription with the organization's speech-to-text model.
 */
@Singleton
public class RecordingService implements RecordingsUseCase {

    static final Duration UPLOAD_TTL = Duration.ofMinutes(30);
    static final String NOT_FOUND = "Recording not found";

    private final RecordingRepository recordings;
    private final WorkflowRepository workflows;
    private final ObjectStore store;
    private final ModelConfigurations models;
    private final Transcriber transcriber;
    private final Clock clock;

    public RecordingService(RecordingRepository recordings, WorkflowRepository workflows, ObjectStore store,
            ModelConfigurations models, Transcriber transcriber, Clock clock) {
        this.recordings = recordings;
        this.workflows = workflows;
        this.store = store;
        this.models = models;
        this.transcriber = transcriber;
        this.clock = clock;
    }

    @Override
    public Uni<List<Upload>> uploadUrls(Principal principal, List<FileToUpload> files) {
        long org = principal.organizationId();
        List<Uni<Upload>> uploads = new ArrayList<>();
        for (FileToUpload file : files) {
            String type = Recording.audioType(file.mimeType());
            if (file.fileSize() <= 0 || file.fileSize() > Recording.MAX_BYTES) {
                throw new DomainRuleViolation("file_size must be between 1 and " + Recording.MAX_BYTES + " bytes");
            }
            String recordingId = Recording.newId();
            String key = ObjectKeys.recording(org, recordingId, file.filename());
            uploads.add(store.signedUploadUrl(key, type, file.fileSize(), UPLOAD_TTL)
                    .map(url -> new Upload(url, recordingId, key)));
        }
        return Multi.createFrom().iterable(uploads).concatMap(Uni::toMulti).collect().asList();
    }

    @Override
    public Uni<List<Recording>> create(Principal principal, List<NewRecording> requested) {
        long org = principal.organizationId();
        Instant now = clock.instant();
        List<Recording> out = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        Set<Long> workflowIds = new HashSet<>();
        for (NewRecording r : requested) {
            if (!ObjectKeys.inArea(r.storageKey(), "recordings", org)) {
                throw new ResourceNotFoundException("No upload of this organization at " + r.storageKey());
            }
            if (!ids.add(r.recordingId())) {
                throw new ConflictException("recording_id " + r.recordingId() + " is given twice");
            }
            if (r.workflowId() != null) {
                workflowIds.add(r.workflowId());
            }
            out.add(new Recording(null, org, r.recordingId(), r.workflowId(), r.ttsProvider(), r.ttsModel(),
                    r.ttsVoiceId(), r.transcript(), r.storageKey(), store.backendName(), r.metadata(),
                    principal.userId(), now, true));
        }
        Uni<Void> workflowsExist = Multi.createFrom().iterable(workflowIds)
                .concatMap(id -> workflows.find(org, id).map(found -> found.orElseThrow(
                        () -> new ResourceNotFoundException("Workflow not found"))).toMulti())
                .collect().asList().replaceWithVoid();
        Uni<Void> uploaded = Multi.createFrom().iterable(out)
                .concatMap(r -> store.metadata(r.storageKey()).map(found -> {
                    if (found.isEmpty()) {
                        throw new DomainRuleViolation("Nothing was uploaded at " + r.storageKey());
                    }
                    return r;
                }).toMulti()).collect().asList().replaceWithVoid();
        return workflowsExist.chain(() -> uploaded).chain(() -> recordings.insertAll(out));
    }

    @Override
    public Uni<List<Recording>> list(Principal principal, RecordingRepository.Filter filter) {
        long org = principal.organizationId();
        if (filter.workflowId() == null) {
            return recordings.list(org, filter);
        }
        // filtering by another organization's workflow is a 404, not an empty list
        return workflows.find(org, filter.workflowId())
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")))
                .chain(workflow -> recordings.list(org, filter));
    }

    @Override
    public Uni<Recording> rename(Principal principal, long id, String recordingId) {
        String next = Recording.checkedId(recordingId);
        return recordings.find(principal.organizationId(), id)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)))
                .chain(current -> current.recordingId().equals(next) ? Uni.createFrom().item(current)
                        : recordings.rename(principal.organizationId(), id, next));
    }

    @Override
    public Uni<Void> delete(Principal principal, String recordingId) {
        long org = principal.organizationId();
        return recordings.findByRecordingId(org, recordingId)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)))
                .chain(found -> recordings.deactivateUnlessUsed(org, recordingId))
                .map(users -> {
                    if (!users.isEmpty()) {
                        throw new ConflictException("Recording " + recordingId + " is used by the published version of "
                                + String.join(", ", users) + "; remove it there and publish first");
                    }
                    return null;
                });
    }

    @Override
    public Uni<Transcription> transcribe(Principal principal, byte[] audio, String contentType, String language) {
        if (audio == null || audio.length == 0) {
            throw new DomainRuleViolation("file is empty");
        }
        if (audio.length > Recording.MAX_BYTES) {
            throw new DomainRuleViolation("file must be at most " + Recording.MAX_BYTES + " bytes");
        }
        String type = Recording.audioType(contentType);
        String lang = language == null || language.isBlank() ? "en" : language.strip();
        if (!lang.matches("[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?|multi")) {
            throw new DomainRuleViolation("language must be a language code such as en or pt-BR");
        }
        return models.resolve(principal.organizationId(), principal.userId()).chain(resolved -> {
            var endpoint = resolved.endpoint(ModelService.STT).orElseThrow(() -> new DomainRuleViolation(
                    "No speech-to-text model is configured: set stt in the organization's model configuration"));
            return transcriber.transcribe(endpoint, audio, type, lang).map(t -> new Transcription(t.text(),
                    t.language() == null ? lang : t.language(), endpoint.provider(), endpoint.model(),
                    t.durationSeconds()));
        });
    }
}
