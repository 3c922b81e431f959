package dev.voiceagent.application.trace;

import java.time.Instant;
import java.util.Map;

/**
 * Out-port: where a run's trace goes (the operator's OpenTelemetry collector, the organization's Langfuse project).
 * A trace is opened when a call's session starts (or a text chat's turn is answered), gets its finished spans as they
 * finish, and is ended; every call is cheap and never waits on the network: spans are queued, batched and sent off the
 * call's loop, and dropped (counted) when the queue is full. Attributes never carry a secret.
 */
public interface RunTraces {

    RunTraces NONE = scope -> RunTrace.NONE;

    /** Opens the trace's top span, {@code scope.name()} from {@code scope.start()}. */
    RunTrace open(Scope scope);

    /**
     * What a trace is of: the run (its {@code traceId}, derived from it: {@code RunTraceId}), its top span's name and
     * start, attributes naming the run, workflow, version, organization, providers and models, and the organization's
     * Langfuse project (null: none).
     */
    record Scope(long organizationId, String traceId, String name, Instant start, Map<String, Object> attributes,
            Langfuse langfuse) {

        public Scope {
            attributes = Map.copyOf(attributes);
        }
    }

    /** An organization's Langfuse project: its host and key pair (the keys only ever go in the export's header). */
    record Langfuse(String host, String publicKey, String secretKey) {

        @Override
        public String toString() {
            return "Langfuse[" + host + "]";
        }
    }
}
