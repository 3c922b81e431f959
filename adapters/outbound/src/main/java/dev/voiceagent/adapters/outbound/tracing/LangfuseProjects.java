package dev.voiceagent.adapters.outbound.tracing;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.trace.RunTraces;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each organization's Langfuse project as a tracer: its OTLP endpoint ({@code {host}/api/public/otel/v1/traces}) with
 * HTTP Basic of its public and secret key, behind its own bounded queue. A project is kept while it is used with the
 * same credentials: a call with changed credentials gets a new one (the old one sends what it holds and closes), and
 * one unused for {@link #IDLE} is closed. At most {@link #MAX_PROJECTS} are open (the least recently used goes).
 */
public final class LangfuseProjects {

    static final Duration IDLE = Duration.ofMinutes(10);
    static final int MAX_PROJECTS = 500;
    static final String DESTINATION = "langfuse";

    private final GuardedHttp http;
    private final Resource resource;
    private final int queueCapacity;
    private final Duration timeout;
    private final TraceExport counts;
    private final Map<Long, Project> projects = new ConcurrentHashMap<>();

    private record Project(String key, SdkTracerProvider provider, Tracer tracer, long[] lastUsed) {
    }

    public LangfuseProjects(GuardedHttp http, Resource resource, int queueCapacity, Duration timeout,
            TraceExport counts) {
        this.http = http;
        this.resource = resource;
        this.queueCapacity = queueCapacity;
        this.timeout = timeout;
        this.counts = counts;
    }

    /** The organization's project's tracer, for these credentials. */
    public Tracer tracer(long organizationId, RunTraces.Langfuse langfuse) {
        String key = langfuse.host() + "\n" + langfuse.publicKey() + "\n" + digest(langfuse.secretKey());
        long now = System.nanoTime();
        Project project = projects.compute(organizationId, (org, current) -> {
            if (current != null && current.key().equals(key)) {
                return current;
            }
            if (current != null) {
                closeLater(current);
            }
            return open(key, langfuse);
        });
        project.lastUsed()[0] = now;
        if (projects.size() > 1) {
            closeIdle(now);
        }
        return project.tracer();
    }

    private Project open(String key, RunTraces.Langfuse langfuse) {
        String host = langfuse.host().endsWith("/") ? langfuse.host().substring(0, langfuse.host().length() - 1)
                : langfuse.host();
        String basic = "Basic " + Base64.getEncoder().encodeToString((langfuse.publicKey() + ":"
                + langfuse.secretKey()).getBytes(StandardCharsets.UTF_8));
        SdkTracerProvider provider = SdkTracerProvider.builder().setResource(resource)
                .setIdGenerator(new RunTraceIds())
                .addSpanProcessor(new QueuedSpans(new OtlpHttpExporter(http, host + "/api/public/otel/v1/traces", basic,
                        timeout), queueCapacity, counts, DESTINATION))
                .build();
        return new Project(key, provider, provider.get("voiceagent"), new long[] {System.nanoTime()});
    }

    private void closeIdle(long now) {
        long idle = IDLE.toNanos();
        projects.entrySet().removeIf(e -> {
            boolean stale = now - e.getValue().lastUsed()[0] > idle;
            if (stale) {
                closeLater(e.getValue());
            }
            return stale;
        });
        while (projects.size() > MAX_PROJECTS) {
            projects.entrySet().stream().min((a, b) -> Long.compare(a.getValue().lastUsed()[0],
                    b.getValue().lastUsed()[0])).ifPresent(oldest -> {
                        if (projects.remove(oldest.getKey(), oldest.getValue())) {
                            closeLater(oldest.getValue());
                        }
                    });
        }
    }

    /** The project sends what it holds and closes, on a thread of its own (never the caller's: a call's loop). */
    private static void closeLater(Project project) {
        Thread.ofVirtual().name("trace-project-close").start(project.provider()::shutdown);
    }

    /** Closes every project (what they hold is sent). */
    public void close() {
        projects.values().forEach(p -> p.provider().shutdown());
        projects.clear();
    }

    private static String digest(String secret) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
