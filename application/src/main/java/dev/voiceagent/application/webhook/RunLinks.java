package dev.voiceagent.application.webhook;

import dev.voiceagent.application.workflow.RunArtifactUseCases.PublicArtifactLinksUseCase;
import dev.voiceagent.domain.workflow.RunArtifact;
import dev.voiceagent.domain.workflow.WorkflowRun;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The links a run's webhooks name (run.completed, and the context of a workflow's webhook nodes), under the names the
 * reference's webhooks use: {@code recording_url}, {@code transcript_url}, {@code user_recording_url} and
 * {@code bot_recording_url}, each the artifact's public download link (the one the run's API gives as
 * {@code recording_public_url}, ...), or null when the run has no such artifact. Made at each delivery, so that a link
 * is signed for the public links' lifetime from the attempt that carries it (never expired by its wait in the outbox)
 * and names what the run has by then: a carrier's final report may complete a run before its call's recording and
 * transcript are stored.
 */
public final class RunLinks {

    /** Each artifact's field, in the order receivers see them. */
    static final Map<RunArtifact, String> FIELDS = fields();

    /** What a run that is gone names: no links. */
    public static final Map<String, Object> NONE = none();

    private final PublicArtifactLinksUseCase links;
    private final String baseUrl;

    /** @param baseUrl where clients reach this service (the links' base; a trailing slash is dropped) */
    public RunLinks(PublicArtifactLinksUseCase links, String baseUrl) {
        this.links = links;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    public Map<String, Object> of(WorkflowRun run) {
        Map<RunArtifact, String> signed = links.links(run, baseUrl);
        Map<String, Object> out = new LinkedHashMap<>();
        FIELDS.forEach((artifact, field) -> out.put(field, signed.get(artifact)));
        return out;
    }

    private static Map<RunArtifact, String> fields() {
        Map<RunArtifact, String> fields = new EnumMap<>(RunArtifact.class);
        fields.put(RunArtifact.RECORDING, "recording_url");
        fields.put(RunArtifact.TRANSCRIPT, "transcript_url");
        fields.put(RunArtifact.USER_RECORDING, "user_recording_url");
        fields.put(RunArtifact.BOT_RECORDING, "bot_recording_url");
        return Collections.unmodifiableMap(fields);
    }

    private static Map<String, Object> none() {
        Map<String, Object> none = new LinkedHashMap<>();
        FIELDS.values().forEach(field -> none.put(field, null));
        return Collections.unmodifiableMap(none);
    }
}
