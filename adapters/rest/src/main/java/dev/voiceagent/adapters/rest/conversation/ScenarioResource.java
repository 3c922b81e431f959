package dev.voiceagent.adapters.rest.conversation;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.conversation.ScenarioUseCases.DeleteScenarioUseCase;
import dev.voiceagent.application.conversation.ScenarioUseCases.ListScenariosUseCase;
import dev.voiceagent.application.conversation.ScenarioUseCases.ReplayScenarioUseCase;
import dev.voiceagent.application.conversation.ScenarioUseCases.ReplayTarget;
import dev.voiceagent.application.conversation.ScenarioUseCases.Replayed;
import dev.voiceagent.application.conversation.ScenarioUseCases.SaveScenarioUseCase;
import dev.voiceagent.application.conversation.ScenarioUseCases.VoiceReplayScenarioUseCase;
import dev.voiceagent.application.conversation.ScenarioUseCases.VoiceReplayed;
import dev.voiceagent.domain.conversation.Scenario;
import dev.voiceagent.domain.conversation.ScenarioReplay;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Scenarios (this service's own, not the reference's): a text chat saved as a regression test of its agent.
 * Saving records the user's messages and, per turn, the path the chat took (the node reached, the edges taken,
 * the values extracted); a replay sends the same messages to the agent's current draft (or published version)
 * and compares the path turn by turn. What the assistant says is shown, not compared.
 */
@Path("/api/v1/workflow/{workflow_id}/text-chat/scenarios")
public class ScenarioResource {

    @Schema(description = "A correction of one recorded turn: each field given replaces what was recorded")
    public record ScenarioExpectation(@NotNull @Min(0) @Max(10_000) Integer turn,
            @Schema(nullable = true) @Size(max = 255) String nodeId,
            @Schema(nullable = true) @Size(max = 50) List<@NotNull @Size(max = 255) String> transitions,
            @Schema(nullable = true) Map<String, Object> extracted) {
    }

    public record SaveScenarioRequest(@NotBlank @Size(max = Scenario.MAX_NAME) String name,
            @Schema(nullable = true, description = "Corrections of the recorded path, by turn (0 is the opening turn)")
            @Size(max = 200) List<@NotNull @Valid ScenarioExpectation> expectations) {
    }

    @Schema(description = "The path of one turn: the node it ended at, the edges taken (by label), the values extracted")
    public record ScenarioPath(@Schema(nullable = true) String nodeId, List<String> transitions,
            Map<String, Object> extracted) {

        static ScenarioPath of(Scenario.Expectation e) {
            return e == null ? null : new ScenarioPath(e.nodeId(), e.transitions(), e.extracted());
        }
    }

    public record ScenarioTurn(int turn, @Schema(nullable = true, description = "Null for the opening turn")
            String userText, ScenarioPath expected, @Schema(nullable = true) String recordedAnswer) {
    }

    public record ScenarioResponse(long runId, long workflowId, String name, Map<String, Object> initialContext,
            List<ScenarioTurn> turns,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant updatedAt) {

        static ScenarioResponse of(Scenario s) {
            return new ScenarioResponse(s.runId(), s.workflowId(), s.name(), s.initialContext(), s.steps().stream()
                    .map(t -> new ScenarioTurn(t.turn(), t.userText(), ScenarioPath.of(t.expected()), t.recordedAnswer()))
                    .toList(), s.createdAt(), s.updatedAt());
        }
    }

    public record ScenarioDifference(String field, @Schema(nullable = true) Object expected,
            @Schema(nullable = true) Object actual) {
    }

    public record ScenarioTurnOutcome(int turn, @Schema(nullable = true) String userText, boolean matched,
            ScenarioPath expected, @Schema(nullable = true, description = "Null when the chat ended before this turn")
            ScenarioPath actual, @Schema(nullable = true) String recordedAnswer, @Schema(nullable = true) String answer,
            List<ScenarioDifference> differences) {
    }

    public record ScenarioDivergence(int turn, String field, @Schema(nullable = true) Object expected,
            @Schema(nullable = true) Object actual) {
    }

    public record ScenarioReplayResponse(long runId, long workflowId, String name,
            @Schema(enumeration = {"draft", "published"}) String version, int versionNumber, boolean passed,
            @Schema(nullable = true) ScenarioDivergence firstDivergence, List<ScenarioTurnOutcome> turns,
            Map<String, Object> usage) {

        static ScenarioReplayResponse of(Replayed r) {
            ScenarioReplay replay = r.replay();
            ScenarioReplay.Divergence d = replay.firstDivergence();
            return new ScenarioReplayResponse(r.scenario().runId(), r.scenario().workflowId(), r.scenario().name(),
                    r.version(), r.versionNumber(), replay.passed(),
                    d == null ? null : new ScenarioDivergence(d.turn(), d.field(), d.expected(), d.actual()),
                    replay.turns().stream().map(t -> new ScenarioTurnOutcome(t.turn(), t.userText(), t.matched(),
                            ScenarioPath.of(t.expected()), ScenarioPath.of(t.actual()), t.recordedAnswer(), t.answer(),
                            t.differences().stream().map(x -> new ScenarioDifference(x.field(), x.expected(), x.actual()))
                                    .toList())).toList(), replay.usage().toMap());
        }
    }

    @Schema(description = "A scenario replayed as a voice call: the text replay's comparison, the call and its figures")
    public record ScenarioVoiceReplayResponse(long runId, long workflowId, String name,
            @Schema(enumeration = {"draft", "published"}) String version, int versionNumber, boolean passed,
            @Schema(nullable = true) ScenarioDivergence firstDivergence, List<ScenarioTurnOutcome> turns,
            @Schema(description = "The voice call's run (mode simulator): its transcript, recording and log")
            long callRunId, double callSeconds,
            @Schema(description = "Each answer's voice-to-voice latency (the caller stopped speaking to the agent's"
                    + " first audio), in the order of the caller's lines") List<Long> latenciesMs,
            @Schema(nullable = true) Long latencyP50Ms, @Schema(nullable = true) Long latencyMaxMs,
            @Schema(description = "Each barge-in: the caller started speaking to the agent's audio stopping")
            List<Long> bargeInsMs) {

        static ScenarioVoiceReplayResponse of(VoiceReplayed v) {
            ScenarioReplayResponse r = ScenarioReplayResponse.of(v.replayed());
            List<Long> sorted = v.latenciesMs().stream().sorted().toList();
            return new ScenarioVoiceReplayResponse(r.runId(), r.workflowId(), r.name(), r.version(), r.versionNumber(),
                    r.passed(), r.firstDivergence(), r.turns(), v.callRunId(), v.callSeconds(), v.latenciesMs(),
                    sorted.isEmpty() ? null : sorted.get((sorted.size() - 1) / 2),
                    sorted.isEmpty() ? null : sorted.getLast(), v.bargeInsMs());
        }
    }

    @Schema(name = "ScenarioActionResponse")
    public record ActionResponse(boolean success, String message) {
    }

    private final Caller caller;
    private final SaveScenarioUseCase save;
    private final ListScenariosUseCase list;
    private final DeleteScenarioUseCase delete;
    private final ReplayScenarioUseCase replay;
    private final VoiceReplayScenarioUseCase voiceReplay;

    public ScenarioResource(Caller caller, SaveScenarioUseCase save, ListScenariosUseCase list,
            DeleteScenarioUseCase delete, ReplayScenarioUseCase replay, VoiceReplayScenarioUseCase voiceReplay) {
        this.caller = caller;
        this.save = save;
        this.list = list;
        this.delete = delete;
        this.replay = replay;
        this.voiceReplay = voiceReplay;
    }

    @GET
    @Operation(summary = "List Text Chat Scenarios", description = "The workflow's scenarios, oldest first")
    public Uni<List<ScenarioResponse>> list(@PathParam("workflow_id") long workflowId) {
        return list.list(caller.principal(), workflowId).map(all -> all.stream().map(ScenarioResponse::of).toList());
    }

    @PUT
    @Path("/{run_id}")
    @Operation(summary = "Save Text Chat Scenario", description = "Saves the text chat (its turns up to a rewind's"
            + " cursor) as a scenario named by its run: the user's messages and, per turn, the node reached, the edges"
            + " taken and the values extracted as the expected path, with the corrections given. Saving again"
            + " replaces it")
    public Uni<ScenarioResponse> save(@PathParam("workflow_id") long workflowId, @PathParam("run_id") long runId,
            @NotNull @Valid SaveScenarioRequest body) {
        List<Scenario.Correction> corrections = body.expectations() == null ? List.of() : body.expectations().stream()
                .map(e -> new Scenario.Correction(e.turn(), e.nodeId(), e.transitions(), e.extracted())).toList();
        return save.save(caller.principal(), workflowId, runId, body.name(), corrections).map(ScenarioResponse::of);
    }

    @DELETE
    @Path("/{run_id}")
    @Operation(summary = "Delete Text Chat Scenario", description = "404 when the run has no scenario")
    public Uni<ActionResponse> delete(@PathParam("workflow_id") long workflowId, @PathParam("run_id") long runId) {
        return delete.delete(caller.principal(), workflowId, runId)
                .replaceWith(new ActionResponse(true, "Scenario deleted successfully"));
    }

    @POST
    @Path("/{run_id}/replay")
    @Operation(summary = "Replay Text Chat Scenario", description = "Sends the scenario's messages to the workflow's"
            + " draft (version=draft, the default: the draft if there is one, else the published version) or its"
            + " published version, on the organization's language model, and compares each turn's path with the"
            + " expected one: passed, the first divergence, and every turn side by side. Nothing is stored; with"
            + " the simulator model a replay is deterministic")
    public Uni<ScenarioReplayResponse> replay(@PathParam("workflow_id") long workflowId, @PathParam("run_id") long runId,
            @QueryParam("version") @DefaultValue("draft") @Pattern(regexp = "draft|published") String version) {
        return replay.replay(caller.principal(), workflowId, runId,
                "published".equals(version) ? ReplayTarget.PUBLISHED : ReplayTarget.DRAFT).map(ScenarioReplayResponse::of);
    }

    @POST
    @Path("/{run_id}/voice-replay")
    @Operation(summary = "Replay Text Chat Scenario As A Voice Call", description = "Replays the scenario as a voice"
            + " call: a simulated caller says its user messages (FreeTTS speech over the media route, in Twilio's"
            + " protocol), each once the agent finished speaking, to the workflow's draft or published version on the"
            + " organization's speech and language models; the call's turns are compared with the scenario as a text"
            + " replay compares them, with each answer's voice-to-voice latency and the barge-ins. The call is a run"
            + " of the workflow (mode simulator); the request lasts as long as the call")
    public Uni<ScenarioVoiceReplayResponse> voiceReplay(@PathParam("workflow_id") long workflowId,
            @PathParam("run_id") long runId,
            @QueryParam("version") @DefaultValue("draft") @Pattern(regexp = "draft|published") String version) {
        return voiceReplay.voiceReplay(caller.principal(), workflowId, runId, "published".equals(version)
                ? ReplayTarget.PUBLISHED : ReplayTarget.DRAFT).map(ScenarioVoiceReplayResponse::of);
    }

    @POST
    @Path("/voice-replay")
    @Operation(summary = "Replay All Text Chat Scenarios As Voice Calls", description = "Every scenario of the"
            + " workflow replayed as a voice call, all at once (a load test of one agent, at most 50): one result per"
            + " scenario, in the order of the list")
    public Uni<List<ScenarioVoiceReplayResponse>> voiceReplayAll(@PathParam("workflow_id") long workflowId,
            @QueryParam("version") @DefaultValue("draft") @Pattern(regexp = "draft|published") String version) {
        return voiceReplay.voiceReplayAll(caller.principal(), workflowId, "published".equals(version)
                ? ReplayTarget.PUBLISHED : ReplayTarget.DRAFT).map(all -> all.stream()
                .map(ScenarioVoiceReplayResponse::of).toList());
    }
}
