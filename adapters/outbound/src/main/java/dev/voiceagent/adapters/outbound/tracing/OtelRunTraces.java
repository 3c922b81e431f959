package dev.voiceagent.adapters.outbound.tracing;

import dev.voiceagent.application.trace.RunTrace;
import dev.voiceagent.application.trace.RunTraces;
import dev.voiceagent.application.trace.TraceSpan;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A run's trace on OpenTelemetry: its top span and every finished span below it, on the operator's collector (the
 * tracer Quarkus's OpenTelemetry SDK gives, when the operator turned it on) and on the organization's Langfuse project
 * (when it has one), both with the run's own trace id. Spans are made from what the session measured, with its
 * timestamps, and ended at once, on a thread of their own: the call's loop only hands over what it measured (a full
 * hand-over queue drops the turn, counted, rather than waiting). Numbers and booleans keep their type; anything else is
 * its text.
 */
public final class OtelRunTraces implements RunTraces {

    /** Turns waiting to be made into spans, at most. */
    static final int HAND_OVER = 4_096;

    private final Tracer collector;
    private final LangfuseProjects langfuse;
    private final TraceExport counts;
    private final ExecutorService making;

    /** @param collector the operator's collector's tracer, null when tracing to a collector is off */
    public OtelRunTraces(Tracer collector, LangfuseProjects langfuse, TraceExport counts) {
        this.collector = collector;
        this.langfuse = langfuse;
        this.counts = counts;
        // one thread: a trace's spans are made in the order they were handed over, its top span ended last
        this.making = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(HAND_OVER),
                Thread.ofVirtual().name("trace-spans").factory(), (task, pool) -> counts.dropped("handover", 1));
    }

    /** Stops making spans (what was handed over is made first). */
    public void close() {
        making.shutdown();
        try {
            making.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public RunTrace open(Scope scope) {
        List<Tracer> tracers = new ArrayList<>(2);
        if (collector != null) {
            tracers.add(collector);
        }
        if (scope.langfuse() != null) {
            tracers.add(langfuse.tracer(scope.organizationId(), scope.langfuse()));
        }
        if (tracers.isEmpty()) {
            return RunTrace.NONE;
        }
        List<Span> roots = new ArrayList<>(tracers.size());
        for (Tracer tracer : tracers) {
            roots.add(RunTraceIds.with(scope.traceId(), () -> tracer.spanBuilder(scope.name()).setNoParent()
                    .setSpanKind(SpanKind.SERVER).setStartTimestamp(scope.start())
                    .setAllAttributes(attributes(scope.attributes())).startSpan()));
        }
        return new Trace(tracers, roots, making);
    }

    private record Trace(List<Tracer> tracers, List<Span> roots, Executor making) implements RunTrace {

        @Override
        public boolean recording() {
            return true;
        }

        @Override
        public void span(TraceSpan span) {
            making.execute(() -> {
                for (int i = 0; i < tracers.size(); i++) {
                    emit(tracers.get(i), Context.root().with(roots.get(i)), span);
                }
            });
        }

        @Override
        public void end(Instant at, Map<String, Object> attributes) {
            making.execute(() -> {
                for (Span root : roots) {
                    root.setAllAttributes(OtelRunTraces.attributes(attributes));
                    root.end(at);
                }
            });
        }

        private static void emit(Tracer tracer, Context parent, TraceSpan span) {
            Span made = tracer.spanBuilder(span.name()).setParent(parent).setStartTimestamp(span.start())
                    .setAllAttributes(OtelRunTraces.attributes(span.attributes())).startSpan();
            for (TraceSpan.Event event : span.events()) {
                made.addEvent(event.name(), OtelRunTraces.attributes(event.attributes()), event.at());
            }
            Context inside = parent.with(made);
            for (TraceSpan child : span.children()) {
                emit(tracer, inside, child);
            }
            made.end(span.end());
        }
    }

    static Attributes attributes(Map<String, Object> values) {
        AttributesBuilder out = Attributes.builder();
        values.forEach((key, value) -> {
            switch (value) {
                case Long l -> out.put(key, l);
                case Integer n -> out.put(key, n.longValue());
                case Short n -> out.put(key, n.longValue());
                case Double d -> out.put(key, d);
                case Float f -> out.put(key, f.doubleValue());
                case Boolean b -> out.put(key, b);
                default -> out.put(key, String.valueOf(value));
            }
        });
        return out.build();
    }
}
