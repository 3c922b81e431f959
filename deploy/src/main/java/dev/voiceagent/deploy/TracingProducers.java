package dev.voiceagent.deploy;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.tracing.LangfuseProjects;
import dev.voiceagent.adapters.outbound.tracing.OtelRunTraces;
import dev.voiceagent.adapters.outbound.tracing.RunTraceIds;
import dev.voiceagent.adapters.outbound.tracing.TraceExport;
import dev.voiceagent.application.organization.TracingCredentialsRepository;
import dev.voiceagent.application.trace.RunTraces;
import dev.voiceagent.application.trace.RunTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.IdGenerator;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Call traces: to the operator's collector through Quarkus's OpenTelemetry SDK (on when
 * {@code QUARKUS_OTEL_SDK_DISABLED=false}, sent where {@code QUARKUS_OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} says), and to
 * each organization's Langfuse project; with the run's own trace id in both. The collector's spans wait in Quarkus's
 * batch processor (bounded by {@code quarkus.otel.bsp.max.queue.size}); the Langfuse projects' in their own queues,
 * what became of them counted ({@code voiceagent_trace_spans_total{destination="langfuse", outcome}}; a turn the
 * span-making thread had no room for is {@code destination="handover", outcome="dropped"}).
 */
@ApplicationScoped
public class TracingProducers {

    private LangfuseProjects projects;
    private OtelRunTraces traces;

    /** Quarkus's SDK takes its trace ids from here: a run's top span gets the run's id. */
    @Produces
    @Singleton
    IdGenerator traceIds() {
        return new RunTraceIds();
    }

    @Produces
    @Singleton
    TraceExport traceExport(MeterRegistry registry) {
        for (String outcome : new String[] {"exported", "dropped", "failed"}) {
            registry.counter("voiceagent.trace.spans", "destination", "langfuse", "outcome", outcome);
        }
        registry.counter("voiceagent.trace.spans", "destination", "handover", "outcome", "dropped");
        return new TraceExport() {
            @Override
            public void exported(String destination, int spans) {
                registry.counter("voiceagent.trace.spans", "destination", destination, "outcome", "exported")
                        .increment(spans);
            }

            @Override
            public void dropped(String destination, int spans) {
                registry.counter("voiceagent.trace.spans", "destination", destination, "outcome", "dropped")
                        .increment(spans);
            }

            @Override
            public void failed(String destination, int spans) {
                registry.counter("voiceagent.trace.spans", "destination", destination, "outcome", "failed")
                        .increment(spans);
            }
        };
    }

    @Produces
    @Singleton
    RunTraces runTraces(OpenTelemetry openTelemetry, GuardedHttp http, TraceExport counts,
            @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false") boolean sdkDisabled,
            @ConfigProperty(name = "quarkus.application.name", defaultValue = "voice-agent") String service,
            @ConfigProperty(name = "voiceagent.tracing.queue", defaultValue = "2048") int queue,
            @ConfigProperty(name = "voiceagent.tracing.timeout", defaultValue = "PT10S") Duration timeout) {
        projects = new LangfuseProjects(http, Resource.getDefault().merge(Resource.create(Attributes.builder()
                .put("service.name", service).build())), queue, timeout, counts);
        traces = new OtelRunTraces(sdkDisabled ? null : openTelemetry.getTracer("voiceagent.calls"), projects, counts);
        return traces;
    }

    @Produces
    @Singleton
    RunTracing runTracing(RunTraces traces, TracingCredentialsRepository credentials) {
        return new RunTracing(traces, credentials);
    }

    void stop(@Observes ShutdownEvent event) {
        if (traces != null) {
            traces.close();
        }
        if (projects != null) {
            projects.close();
        }
    }
}
