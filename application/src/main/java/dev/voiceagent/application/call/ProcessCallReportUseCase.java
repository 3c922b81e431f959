package dev.voiceagent.application.call;

import io.smallrye.mutiny.Uni;

public interface ProcessCallReportUseCase {

    /** Applies the report if it moves the call forward; a duplicate, late or foreign report changes nothing. */
    Uni<String> process(CallReport report);
}
