package dev.voiceagent.adapters.rest.docs;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.docs.DocsAssistantUseCase;
import dev.voiceagent.application.docs.DocsAssistantUseCase.Turn;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The documentation assistant: questions about this API answered from its own documentation. */
@Path("/api/v1/docs")
public class DocsChatResource {

    public record HistoryTurn(@NotNull @Pattern(regexp = "user|assistant") String role,
            @NotNull @Size(max = 8_000) String content) {
    }

    public record DocsChatRequest(@NotBlank @Size(max = 2_000) String message,
            @Schema(nullable = true) @Size(max = 20) List<@NotNull @Valid HistoryTurn> history) {
    }

    public record DocsSource(int number, String source, String title, String excerpt, double score) {
    }

    public record DocsChatResponse(String answer, List<DocsSource> sources,
            @Schema(enumeration = {"model", "passages"}, description = "model: written by the organization's language"
                    + " model from the sources; passages: no model configured, the sources are the answer")
            String mode) {
    }

    private final Caller caller;
    private final DocsAssistantUseCase docs;

    public DocsChatResource(Caller caller, DocsAssistantUseCase docs) {
        this.caller = caller;
        this.docs = docs;
    }

    @POST
    @Path("/chat")
    @Operation(summary = "Docs Chat", description = "Answers a question about this API from its README, OpenAPI"
            + " operations and design records (full-text search over the indexed passages); with a language model"
            + " configured the answer cites the passages as [1], [2]")
    public Uni<DocsChatResponse> chat(@NotNull @Valid DocsChatRequest body) {
        List<Turn> history = body.history() == null ? List.of()
                : body.history().stream().map(t -> new Turn(t.role(), t.content())).toList();
        return docs.chat(caller.principal(), body.message(), history).map(a -> new DocsChatResponse(a.answer(),
                a.sources().stream().map(s -> new DocsSource(s.number(), s.source(), s.title(), s.excerpt(), s.score()))
                        .toList(), a.mode()));
    }
}
