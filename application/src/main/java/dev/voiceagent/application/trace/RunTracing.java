package dev.voiceagent.application.trace;

import dev.voiceagent.application.organization.TracingCredentialsRepository;
import dev.voiceagent.domain.workflow.RunTraceId;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Opens a run's trace: to the operator's collector and, when the organization saved Langfuse credentials, to its
 * Langfuse project, read as they are now (a change or a deletion acts on the next call). The trace's attributes name
 * the run, its workflow and version, its organization and mode; never a secret. Credentials that cannot be read leave
 * the organization's project out, and a trace that cannot be opened leaves the run untraced, rather than the call
 * waiting or failing.
 */
public class RunTracing {

    private static final System.Logger LOG = System.getLogger(RunTracing.class.getName());

    private final RunTraces traces;
    private final TracingCredentialsRepository credentials;

    public RunTracing(RunTraces traces, TracingCredentialsRepository credentials) {
        this.traces = traces;
        this.credentials = credentials;
    }

    public Uni<RunTrace> open(WorkflowRun run, String name, Instant start, Map<String, Object> attributes) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("voiceagent.organization.id", run.organizationId());
        all.put("voiceagent.workflow.id", run.workflowId());
        all.put("voiceagent.workflow.version_id", run.definitionId());
        all.put("voiceagent.run.id", run.id());
        all.put("voiceagent.run.name", run.name());
        all.put("voiceagent.run.mode", run.mode());
        all.put("voiceagent.call.type", run.callType());
        all.put("langfuse.session.id", String.valueOf(run.id()));
        all.put("langfuse.trace.name", name);
        attributes.forEach((k, v) -> {
            if (v != null) {
                all.put(k, v);
            }
        });
        all.values().removeIf(v -> v == null);
        String traceId = RunTraceId.of(run);
        return credentials.find(run.organizationId())
                .map(found -> found.map(c -> new RunTraces.Langfuse(c.host(), c.publicKey(), c.secretKey())))
                .onFailure().recoverWithItem(failure -> {
                    LOG.log(System.Logger.Level.WARNING, "run {0}: Langfuse credentials not read, traced without them:"
                            + " {1}", run.id(), failure.toString());
                    return java.util.Optional.empty();
                })
                .map(langfuse -> traces.open(new RunTraces.Scope(run.organizationId(), traceId, name, start, all,
                        langfuse.orElse(null))))
                .onFailure().recoverWithItem(failure -> {
                    LOG.log(System.Logger.Level.WARNING, "run {0} not traced: {1}", run.id(), failure.toString());
                    return RunTrace.NONE;
                });
    }
}
