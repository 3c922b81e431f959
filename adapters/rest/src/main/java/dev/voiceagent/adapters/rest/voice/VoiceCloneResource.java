package dev.voiceagent.adapters.rest.voice;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.voice.VoiceCloneRepository.AgentVoice;
import dev.voiceagent.application.voice.VoiceCloneUseCases;
import dev.voiceagent.domain.voice.VoiceClone;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Voice clones (not in the reference): a voice cloned at the organization's text-to-speech provider (ElevenLabs
 * instant voice cloning) from its recordings, previewed, and set as an agent's voice (workflow configuration
 * "voice" in the draft).
 */
@Path("/api/v1/voice-clones")
@Tag(name = "voice-clones", description = "Voices cloned from the organization's recordings (ElevenLabs)")
public class VoiceCloneResource {

    public record ProviderCapabilityResponse(String provider, boolean canClone, @Schema(nullable = true) String reason,
            boolean configured) {
    }

    public record CapabilitiesResponse(@Schema(nullable = true, description = "The organization's text-to-speech"
            + " provider") String configuredProvider, boolean canClone, List<ProviderCapabilityResponse> providers) {
    }

    public record CreateVoiceCloneRequest(@NotBlank @Size(max = VoiceClone.MAX_NAME) String name,
            @Schema(nullable = true) @Size(max = 500) String description,
            @NotNull @NotEmpty @Size(max = VoiceClone.MAX_RECORDINGS) List<@NotBlank @Size(max = 64) String> recordingIds,
            @Schema(nullable = true, description = "Must be the configured text-to-speech provider when given")
            @Size(max = 50) String provider) {
    }

    public record VoiceCloneResponse(long id, String name, @Schema(nullable = true) String description,
            String provider, String providerVoiceId, String status, List<String> recordingIds,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt) {

        static VoiceCloneResponse of(VoiceClone c) {
            return new VoiceCloneResponse(c.id(), c.name(), c.description(), c.provider(), c.providerVoiceId(),
                    c.status(), c.recordingIds(), c.createdAt());
        }
    }

    public record PreviewRequest(@NotBlank @Size(max = VoiceClone.MAX_PREVIEW_TEXT) String text) {
    }

    public record PreviewResponse(String audioUrl, String storageKey, int expiresInSeconds) {
    }

    public record AgentVoiceResponse(long workflowId, String workflowName,
            @Schema(nullable = true, description = "The clone the draft speaks with") Long draftCloneId,
            @Schema(nullable = true, description = "The clone the published version speaks with") Long publishedCloneId,
            @Schema(nullable = true) String providerVoiceId) {

        static AgentVoiceResponse of(AgentVoice a) {
            return new AgentVoiceResponse(a.workflowId(), a.workflowName(), a.draftCloneId(), a.publishedCloneId(),
                    a.providerVoiceId());
        }
    }

    public record UseVoiceCloneRequest(@NotNull Long cloneId) {
    }

    public record UseVoiceCloneResponse(long workflowId, long cloneId, String status) {
    }

    public record DeleteVoiceCloneResponse(boolean success, long id) {
    }

    private final Caller caller;
    private final VoiceCloneUseCases.GetVoiceCloneCapabilitiesUseCase getVoiceCloneCapabilities;
    private final VoiceCloneUseCases.ListVoiceClonesUseCase listVoiceClones;
    private final VoiceCloneUseCases.CreateVoiceCloneUseCase createVoiceClone;
    private final VoiceCloneUseCases.PreviewVoiceCloneUseCase previewVoiceClone;
    private final VoiceCloneUseCases.ListCloneVoicedAgentsUseCase listCloneVoicedAgents;
    private final VoiceCloneUseCases.UseVoiceCloneInWorkflowUseCase useVoiceCloneInWorkflow;
    private final VoiceCloneUseCases.DeleteVoiceCloneUseCase deleteVoiceClone;

    public VoiceCloneResource(Caller caller,
            VoiceCloneUseCases.GetVoiceCloneCapabilitiesUseCase getVoiceCloneCapabilities,
            VoiceCloneUseCases.ListVoiceClonesUseCase listVoiceClones,
            VoiceCloneUseCases.CreateVoiceCloneUseCase createVoiceClone,
            VoiceCloneUseCases.PreviewVoiceCloneUseCase previewVoiceClone,
            VoiceCloneUseCases.ListCloneVoicedAgentsUseCase listCloneVoicedAgents,
            VoiceCloneUseCases.UseVoiceCloneInWorkflowUseCase useVoiceCloneInWorkflow,
            VoiceCloneUseCases.DeleteVoiceCloneUseCase deleteVoiceClone) {
        this.caller = caller;
        this.getVoiceCloneCapabilities = getVoiceCloneCapabilities;
        this.listVoiceClones = listVoiceClones;
        this.createVoiceClone = createVoiceClone;
        this.previewVoiceClone = previewVoiceClone;
        this.listCloneVoicedAgents = listCloneVoicedAgents;
        this.useVoiceCloneInWorkflow = useVoiceCloneInWorkflow;
        this.deleteVoiceClone = deleteVoiceClone;
    }

    @GET
    @Path("/capabilities")
    @Operation(summary = "Voice Clone Capabilities", description = "Which text-to-speech providers can clone here"
            + " (ElevenLabs yes; the others no, with the reason) and whether the configured one can")
    public Uni<CapabilitiesResponse> capabilities() {
        return getVoiceCloneCapabilities.capabilities(caller.principal()).map(c -> new CapabilitiesResponse(c.configuredProvider(),
                c.canClone(), c.providers().stream().map(p -> new ProviderCapabilityResponse(p.provider(), p.canClone(),
                        p.reason(), p.configured())).toList()));
    }

    @GET
    @Operation(summary = "List Voice Clones")
    public Uni<List<VoiceCloneResponse>> list() {
        return listVoiceClones.list(caller.principal()).map(all -> all.stream().map(VoiceCloneResponse::of).toList());
    }

    @POST
    @Operation(summary = "Create Voice Clone", description = "Sends the recordings' audio to the provider"
            + " (ElevenLabs POST /v1/voices/add); a provider that fails is a 502")
    public Uni<VoiceCloneResponse> create(@NotNull @Valid CreateVoiceCloneRequest body) {
        return createVoiceClone.create(caller.principal(), body.name(), body.description(), body.recordingIds(), body.provider())
                .map(VoiceCloneResponse::of);
    }

    @GET
    @Path("/agents")
    @Operation(summary = "Agents And Their Voices", description = "The workflows whose draft or published"
            + " configuration sets a voice, and which clone")
    public Uni<List<AgentVoiceResponse>> agents() {
        return listCloneVoicedAgents.agents(caller.principal()).map(all -> all.stream().map(AgentVoiceResponse::of).toList());
    }

    @PUT
    @Path("/agents/{workflow_id}")
    @Operation(summary = "Use Voice Clone", description = "Sets the clone as the voice of the workflow's draft"
            + " (configuration \"voice\"); publish to use it in calls")
    public Uni<UseVoiceCloneResponse> use(@PathParam("workflow_id") long workflowId,
            @NotNull @Valid UseVoiceCloneRequest body) {
        return useVoiceCloneInWorkflow.useInWorkflow(caller.principal(), workflowId, body.cloneId())
                .map(v -> new UseVoiceCloneResponse(workflowId, body.cloneId(), "draft"));
    }

    @POST
    @Path("/{clone_id}/preview")
    @Operation(summary = "Preview Voice Clone", description = "Speaks the text (at most 500 characters) with the"
            + " clone, stores the audio and answers a signed link (one hour)")
    public Uni<PreviewResponse> preview(@PathParam("clone_id") long cloneId, @NotNull @Valid PreviewRequest body) {
        return previewVoiceClone.preview(caller.principal(), cloneId, body.text())
                .map(p -> new PreviewResponse(p.audioUrl(), p.storageKey(), p.expiresInSeconds()));
    }

    @DELETE
    @Path("/{clone_id}")
    @Operation(summary = "Delete Voice Clone", description = "Removes it at the provider, then here; 409 while a"
            + " published version speaks with it")
    public Uni<DeleteVoiceCloneResponse> delete(@PathParam("clone_id") long cloneId) {
        return deleteVoiceClone.delete(caller.principal(), cloneId).map(v -> new DeleteVoiceCloneResponse(true, cloneId));
    }
}
