package dev.voiceagent.adapters.outbound.tracing;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * OTLP over HTTP (binary protobuf, OpenTelemetry's own encoding) to a project a tenant named: POST {@code url} with
 * its {@code Authorization}, through the address guard like every request a tenant aims. A 2xx is sent; anything else,
 * or no answer within the time limit, is a failure (the batch is not sent again: a trace is worth less than the
 * memory a retry would hold).
 */
final class OtlpHttpExporter implements SpanExporter {

    private static final System.Logger LOG = System.getLogger(OtlpHttpExporter.class.getName());

    private final GuardedHttp http;
    private final String url;
    private final Map<String, String> headers;
    private final Duration timeout;
    private volatile boolean warned;

    OtlpHttpExporter(GuardedHttp http, String url, String authorization, Duration timeout) {
        this.http = http;
        this.url = url;
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", "application/x-protobuf");
        h.put("Authorization", authorization);
        this.headers = Map.copyOf(h);
        this.timeout = timeout;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        CompletableResultCode result = new CompletableResultCode();
        byte[] body;
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            TraceRequestMarshaler.create(spans).writeBinaryTo(out);
            body = out.toByteArray();
        } catch (IOException | RuntimeException e) {
            return CompletableResultCode.ofExceptionalFailure(e);
        }
        http.exchange("POST", url, headers, body, timeout, true).subscribe().with(answer -> {
            if (answer.status() / 100 == 2) {
                warned = false;
                result.succeed();
            } else {
                warn("answered " + answer.status() + ": " + excerpt(answer.body()));
                result.fail();
            }
        }, failure -> {
            warn(failure.getMessage());
            result.failExceptionally(failure);
        });
        return result;
    }

    /** Once per streak of failures: a collector that is down is said once, not per batch. */
    private void warn(String why) {
        if (!warned) {
            warned = true;
            LOG.log(System.Logger.Level.WARNING, "traces to {0} not sent: {1}", url, why);
        }
    }

    private static String excerpt(String body) {
        return body == null ? "" : body.length() > 200 ? body.substring(0, 200) : body;
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
