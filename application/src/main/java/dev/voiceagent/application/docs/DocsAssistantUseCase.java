package dev.voiceagent.application.docs;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.List;

/** The documentation assistant's question. */
public interface DocsAssistantUseCase {

    /** A turn of the conversation so far (user or assistant). */
    record Turn(String role, String content) {
    }

    record Source(int number, String source, String title, String excerpt, double score) {
    }

    /** The answer, its numbered sources, and how it was made (model or passages). */
    record Answer(String answer, List<Source> sources, String mode) {
    }

    Uni<Answer> chat(Principal principal, String message, List<Turn> history);
}
