package dev.voiceagent.application.voice;

import dev.voiceagent.application.model.ModelConfigurations;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.recording.RecordingRepository;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.voice.VoiceCloneUseCases.Capabilities;
import dev.voiceagent.application.voice.VoiceCloneUseCases.Preview;
import dev.voiceagent.application.voice.VoiceCloneUseCases.ProviderCapability;
import dev.voiceagent.application.workflow.UpdateWorkflowCommand;
import dev.voiceagent.application.workflow.UpdateWorkflowUseCase;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.model.ModelCatalog;
import dev.voiceagent.domain.model.ModelProvider;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.recording.Recording;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.voice.VoiceClone;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Voice clones: which of the organization's text-to-speech providers can clone, a clone made from its recordings'
 * audio (read from the object store and sent to the provider), previews stored and linked, the agents that speak
 * with a clone, a clone set as a workflow draft's voice, and deletes refused while a published version uses it.
 */
@Singleton
public class VoiceCloneService implements VoiceCloneUseCases.GetVoiceCloneCapabilitiesUseCase,
        VoiceCloneUseCases.ListVoiceClonesUseCase, VoiceCloneUseCases.CreateVoiceCloneUseCase,
        VoiceCloneUseCases.PreviewVoiceCloneUseCase, VoiceCloneUseCases.ListCloneVoicedAgentsUseCase,
        VoiceCloneUseCases.UseVoiceCloneInWorkflowUseCase, VoiceCloneUseCases.DeleteVoiceCloneUseCase {

    static final String NOT_FOUND = "Voice clone not found";
    static final Duration PREVIEW_LINK = Duration.ofHours(1);

    private final VoiceCloneRepository clones;
    private final RecordingRepository recordings;
    private final WorkflowRepository workflows;
    private final UpdateWorkflowUseCase updateWorkflow;
    private final ObjectStore store;
    private final ModelConfigurations models;
    private final VoiceCloning cloning;
    private final Clock clock;

    public VoiceCloneService(VoiceCloneRepository clones, RecordingRepository recordings, WorkflowRepository workflows,
            UpdateWorkflowUseCase updateWorkflow, ObjectStore store, ModelConfigurations models, VoiceCloning cloning,
            Clock clock) {
        this.clones = clones;
        this.recordings = recordings;
        this.workflows = workflows;
        this.updateWorkflow = updateWorkflow;
        this.store = store;
        this.models = models;
        this.cloning = cloning;
        this.clock = clock;
    }

    private Uni<Optional<ModelEndpoint>> tts(Principal principal) {
        return models.resolve(principal.organizationId(), principal.userId())
                .map(resolved -> resolved.endpoint(ModelService.TTS));
    }

    @Override
    public Uni<Capabilities> capabilities(Principal principal) {
        return tts(principal).map(endpoint -> {
            String configured = endpoint.map(ModelEndpoint::provider).orElse(null);
            List<ProviderCapability> out = new ArrayList<>();
            for (ModelProvider p : ModelCatalog.of(ModelService.TTS)) {
                VoiceCloning.Capability c = cloning.capability(p.id());
                out.add(new ProviderCapability(p.id(), c.canClone(), c.reason(), p.id().equals(configured)));
            }
            boolean can = configured != null && cloning.capability(configured).canClone();
            return new Capabilities(configured, can, out);
        });
    }

    @Override
    public Uni<List<VoiceClone>> list(Principal principal) {
        return clones.list(principal.organizationId());
    }

    @Override
    public Uni<VoiceClone> create(Principal principal, String name, String description, List<String> recordingIds,
            String provider) {
        long org = principal.organizationId();
        List<String> ids = List.copyOf(new LinkedHashSet<>(recordingIds));
        if (ids.isEmpty() || ids.size() > VoiceClone.MAX_RECORDINGS) {
            throw new DomainRuleViolation("recording_ids must name 1 to " + VoiceClone.MAX_RECORDINGS + " recordings");
        }
        return Multi.createFrom().iterable(ids).concatMap(id -> recordings.findByRecordingId(org, id)
                        .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Recording not found: " + id)))
                        .toMulti()).collect().asList()
                .chain(found -> endpointFor(principal, provider).chain(endpoint -> samples(found)
                        .chain(samples -> cloning.create(endpoint, name, description, samples))
                        .chain(voiceId -> clones.insert(new VoiceClone(null, org, name, description, endpoint.provider(),
                                voiceId, "ready", ids, principal.userId(), clock.instant())))));
    }

    /** The organization's TTS endpoint, which must be the provider asked for (if any) and able to clone. */
    private Uni<ModelEndpoint> endpointFor(Principal principal, String provider) {
        return tts(principal).map(found -> {
            ModelEndpoint endpoint = found.orElseThrow(() -> new DomainRuleViolation("No text-to-speech model is"
                    + " configured: set tts (elevenlabs) in the organization's model configuration"));
            if (provider != null && !provider.equals(endpoint.provider())) {
                throw new DomainRuleViolation("The organization's text-to-speech provider is " + endpoint.provider()
                        + ", not " + provider + ": clones are made with the configured provider's key");
            }
            VoiceCloning.Capability c = cloning.capability(endpoint.provider());
            if (!c.canClone()) {
                throw new DomainRuleViolation(c.reason());
            }
            return endpoint;
        });
    }

    private Uni<List<VoiceCloning.Sample>> samples(List<Recording> found) {
        return Multi.createFrom().iterable(found).concatMap(r -> store.open(r.storageKey()).chain(opened -> {
            InputStream in = opened.orElseThrow(() -> new DomainRuleViolation("The audio of recording "
                    + r.recordingId() + " is no longer in the object store"));
            return Uni.createFrom().item(() -> {
                try (in) {
                    return new VoiceCloning.Sample(r.storageKey().substring(r.storageKey().lastIndexOf('/') + 1),
                            contentType(r.storageKey()), in.readNBytes((int) Recording.MAX_BYTES + 1));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
        }).toMulti()).collect().asList();
    }

    private static String contentType(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.endsWith(".mp3") ? "audio/mpeg" : k.endsWith(".ogg") ? "audio/ogg" : k.endsWith(".webm")
                ? "audio/webm" : k.endsWith(".flac") ? "audio/flac" : k.endsWith(".m4a") ? "audio/mp4" : "audio/wav";
    }

    private Uni<VoiceClone> find(Principal principal, long id) {
        return clones.find(principal.organizationId(), id)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)));
    }

    @Override
    public Uni<Preview> preview(Principal principal, long id, String text) {
        if (text == null || text.isBlank() || text.length() > VoiceClone.MAX_PREVIEW_TEXT) {
            throw new DomainRuleViolation("text must be 1 to " + VoiceClone.MAX_PREVIEW_TEXT + " characters");
        }
        return find(principal, id).chain(clone -> endpointFor(principal, clone.provider())
                .chain(endpoint -> cloning.speak(endpoint, clone.providerVoiceId(), text.strip()))
                .chain(audio -> {
                    String key = "voice_clones/" + principal.organizationId() + "/" + clone.id() + "/preview-"
                            + UUID.randomUUID() + ".mp3";
                    return store.put(key, audio, "audio/mpeg")
                            .chain(() -> store.signedDownloadUrl(key, PREVIEW_LINK, true))
                            .map(url -> new Preview(url, key, (int) PREVIEW_LINK.toSeconds()));
                }));
    }

    @Override
    public Uni<List<VoiceCloneRepository.AgentVoice>> agents(Principal principal) {
        return clones.agents(principal.organizationId());
    }

    /** Sets the clone as the voice of the workflow's draft (a draft is made if there is none). */
    @Override
    public Uni<Void> useInWorkflow(Principal principal, long workflowId, long cloneId) {
        long org = principal.organizationId();
        return workflows.find(org, workflowId)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")))
                .chain(workflow -> find(principal, cloneId).chain(clone -> {
                    Map<String, Object> configurations = new LinkedHashMap<>(workflow.editable().configurations() == null
                            ? Map.of() : workflow.editable().configurations());
                    Map<String, Object> voice = new LinkedHashMap<>();
                    voice.put("provider", clone.provider());
                    voice.put("voice_id", clone.providerVoiceId());
                    voice.put("clone_id", clone.id());
                    voice.put("name", clone.name());
                    configurations.put(VoiceClone.CONFIGURATION_KEY, voice);
                    return updateWorkflow.update(new UpdateWorkflowCommand(principal, workflowId, null, null,
                            configurations, null)).replaceWithVoid();
                }));
    }

    /**
     * Refused (409) while a published version speaks with the clone; else removed at the provider first (a provider
     * that fails is a 502 and the clone stays), then here.
     */
    @Override
    public Uni<Void> delete(Principal principal, long id) {
        return find(principal, id).chain(clone -> clones.agents(principal.organizationId()).chain(agents -> {
            List<String> users = agents.stream().filter(a -> Long.valueOf(id).equals(a.publishedCloneId()))
                    .map(VoiceCloneRepository.AgentVoice::workflowName).toList();
            if (!users.isEmpty()) {
                throw conflict(users);
            }
            return tts(principal).chain(endpoint -> endpoint.filter(e -> e.provider().equals(clone.provider()))
                    .map(e -> cloning.delete(e, clone.providerVoiceId()))
                    .orElse(Uni.createFrom().voidItem()));
        }).chain(() -> clones.deleteUnlessUsed(principal.organizationId(), id)).map(users -> {
            if (!users.isEmpty()) {
                throw conflict(users);
            }
            return null;
        }));
    }

    private static ConflictException conflict(List<String> users) {
        return new ConflictException("The voice clone is used by the published version of " + String.join(", ", users)
                + "; choose another voice there and publish first");
    }
}
