package dev.voiceagent.application.call;

import io.smallrye.mutiny.Uni;

public interface ProcessCallReportUseCase {

    /**
     * Checks the report's signature against the configuration of the call it names (ForbiddenException,
     * failing closed), then applies it if it moves the call forward; a duplicate or late report
     * changes nothing and is acknowledged.
     */
    Uni<String> process(CallReport report, SignatureCheck signature);
}
