package dev.voiceagent.adapters.outbound.tracing;

import io.opentelemetry.sdk.trace.IdGenerator;
import java.util.function.Supplier;

/**
 * Trace ids: random, except for the top span of a run's trace, whose id is the run's own (derived from the run, see
 * {@code RunTraceId}): asked for on the thread that starts that span, once. Installed in every tracer provider the
 * runtime traces calls on (the collector's, through Quarkus, and each organization's Langfuse project's).
 */
public final class RunTraceIds implements IdGenerator {

    private static final ThreadLocal<String> NEXT = new ThreadLocal<>();
    private static final IdGenerator RANDOM = IdGenerator.random();

    /** Starts a span whose trace id is {@code traceId}: {@code start} runs with it as the next trace id asked for. */
    public static <T> T with(String traceId, Supplier<T> start) {
        NEXT.set(traceId);
        try {
            return start.get();
        } finally {
            NEXT.remove();
        }
    }

    @Override
    public String generateSpanId() {
        return RANDOM.generateSpanId();
    }

    @Override
    public String generateTraceId() {
        String next = NEXT.get();
        if (next != null) {
            NEXT.remove();
            return next;
        }
        return RANDOM.generateTraceId();
    }
}
