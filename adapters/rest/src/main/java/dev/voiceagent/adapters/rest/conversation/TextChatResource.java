package dev.voiceagent.adapters.rest.conversation;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.conversation.TextChatRecord;
import dev.voiceagent.application.conversation.TextChatUseCases.CreateTextChatUseCase;
import dev.voiceagent.application.conversation.TextChatUseCases.EndTextChatUseCase;
import dev.voiceagent.application.conversation.TextChatUseCases.GetTextChatUseCase;
import dev.voiceagent.application.conversation.TextChatUseCases.RewindTextChatUseCase;
import dev.voiceagent.application.conversation.TextChatUseCases.SendTextChatMessageUseCase;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.time.Instant;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Text chat with an agent on the organization's language model (the reference's text chat, mode textchat):
 * create (the opening turn runs first), read, send a message, end, rewind. Writes are guarded by the session's
 * revision: a stale expected_revision, or a second message while one is being answered, is a 409.
 */
@Path("/api/v1/workflow/{workflow_id}/text-chat/sessions")
public class TextChatResource {

    public record CreateTextChatSessionRequest(@Schema(nullable = true) @Size(max = 255) String name,
            @Schema(nullable = true) Map<String, Object> initialContext,
            @Schema(nullable = true) Map<String, Object> annotations) {
    }

    public record AppendTextChatMessageRequest(@NotNull @Size(min = 1, max = 4000) String text,
            @Schema(nullable = true) @Min(0) @Max(Integer.MAX_VALUE) Integer expectedRevision) {
    }

    public record EndTextChatSessionRequest(@Schema(nullable = true) @Min(0) Integer expectedRevision) {
    }

    public record RewindTextChatSessionRequest(
            @Schema(nullable = true, description = "The turn to rewind to; null undoes a rewind") @Size(max = 64)
            String cursorTurnId,
            @Schema(nullable = true) @Min(0) Integer expectedRevision) {
    }

    public record WorkflowRunTextSessionResponse(long workflowRunId, long workflowId, String name, String mode,
            String state, boolean isCompleted, int revision, @Schema(nullable = true) Map<String, Object> initialContext,
            @Schema(nullable = true) Map<String, Object> gatheredContext,
            @Schema(nullable = true) Map<String, Object> annotations,
            @Schema(description = "{version, status (idle, rewound, completed), cursor_turn_id, turns [{id, status,"
                    + " created_at, user_message, assistant_message, node_id, events, usage, checkpoint_after_turn}],"
                    + " discarded_future, simulator}") Map<String, Object> sessionData,
            @Schema(description = "What the next turn resumes from: {version, anchor_turn_id, current_node_id,"
                    + " messages, gathered_context, user_turns, ended, end_reason, tool_state}")
            Map<String, Object> checkpoint,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(nullable = true, type = SchemaType.STRING, format = "date-time", implementation = String.class)
            Instant updatedAt) {

        public static WorkflowRunTextSessionResponse of(TextChatRecord r) {
            return new WorkflowRunTextSessionResponse(r.run().id(), r.run().workflowId(), r.run().name(), r.run().mode(),
                    r.run().state(), r.run().completed(), r.revision(), r.run().initialContext(),
                    r.run().gatheredContext(), r.run().annotations(), r.session().toMap(), r.checkpoint(), r.createdAt(),
                    r.updatedAt());
        }
    }

    private final Caller caller;
    private final CreateTextChatUseCase create;
    private final GetTextChatUseCase get;
    private final SendTextChatMessageUseCase send;
    private final EndTextChatUseCase end;
    private final RewindTextChatUseCase rewind;

    public TextChatResource(Caller caller, CreateTextChatUseCase create, GetTextChatUseCase get,
            SendTextChatMessageUseCase send, EndTextChatUseCase end, RewindTextChatUseCase rewind) {
        this.caller = caller;
        this.create = create;
        this.get = get;
        this.send = send;
        this.end = end;
        this.rewind = rewind;
    }

    @POST
    @Operation(summary = "Create Text Chat Session", description = "A textchat run (WR-TEXT-XXXXXX unless named) on the"
            + " workflow's draft, or its published version when it has no draft; the opening turn (the greeting, or the"
            + " model's first words) has run before the answer. Nothing is stored when the model fails (502)")
    public Uni<WorkflowRunTextSessionResponse> create(@PathParam("workflow_id") long workflowId,
            @Valid CreateTextChatSessionRequest body) {
        CreateTextChatSessionRequest b = body == null ? new CreateTextChatSessionRequest(null, null, null) : body;
        return create.create(caller.principal(), workflowId, b.name(), b.initialContext(), b.annotations())
                .map(WorkflowRunTextSessionResponse::of);
    }

    @GET
    @Path("/{run_id}")
    @Operation(summary = "Get Text Chat Session")
    public Uni<WorkflowRunTextSessionResponse> session(@PathParam("workflow_id") long workflowId,
            @PathParam("run_id") long runId) {
        return get.get(caller.principal(), workflowId, runId).map(WorkflowRunTextSessionResponse::of);
    }

    @POST
    @Path("/{run_id}/messages")
    @Operation(summary = "Append Text Chat Message", description = "The user's message and the agent's answer as one"
            + " new turn (revision + 1). 409 {message, expected_revision, actual_revision} when expected_revision is not"
            + " the session's or another message is being answered; 400 once the session has ended; a model failure"
            + " is a 502 and leaves the session as it was")
    public Uni<WorkflowRunTextSessionResponse> message(@PathParam("workflow_id") long workflowId,
            @PathParam("run_id") long runId, @NotNull @Valid AppendTextChatMessageRequest body) {
        return send.send(caller.principal(), workflowId, runId, body.text(), body.expectedRevision())
                .map(WorkflowRunTextSessionResponse::of);
    }

    @POST
    @Path("/{run_id}/end")
    @Operation(summary = "End Text Chat Session", description = "Completes the run (disposition user_hangup);"
            + " ending an ended session answers it unchanged")
    public Uni<WorkflowRunTextSessionResponse> end(@PathParam("workflow_id") long workflowId,
            @PathParam("run_id") long runId, @Valid EndTextChatSessionRequest body) {
        return end.end(caller.principal(), workflowId, runId, body == null ? null : body.expectedRevision())
                .map(WorkflowRunTextSessionResponse::of);
    }

    @POST
    @Path("/{run_id}/rewind")
    @Operation(summary = "Rewind Text Chat Session", description = "Continues from an earlier turn: the turns after it"
            + " move to discarded_future when the next message is sent; cursor_turn_id null undoes the rewind")
    public Uni<WorkflowRunTextSessionResponse> rewind(@PathParam("workflow_id") long workflowId,
            @PathParam("run_id") long runId, @Valid RewindTextChatSessionRequest body) {
        RewindTextChatSessionRequest b = body == null ? new RewindTextChatSessionRequest(null, null) : body;
        return rewind.rewind(caller.principal(), workflowId, runId, b.cursorTurnId(), b.expectedRevision())
                .map(WorkflowRunTextSessionResponse::of);
    }
}
