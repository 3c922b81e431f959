package dev.voiceagent.deploy.support;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * An OTLP/HTTP receiver standing in for an operator's collector and for Langfuse's OTLP endpoint: it decodes every
 * export with OpenTelemetry's own protobuf messages and keeps each span with the path and Authorization header of the
 * request that carried it. The service's collector export is pointed here (Quarkus's SDK turned on); Langfuse is
 * whatever host an organization saves, this receiver's address included.
 */
public class OtlpReceiver implements QuarkusTestResourceLifecycleManager {

    /** A span as received: where to, with what authorization, its ids and attributes (values as text or numbers). */
    public record Received(String path, String authorization, String traceId, String spanId, String parentSpanId,
            String name, long startNanos, long endNanos, Map<String, Object> attributes, List<String> events,
            Map<String, Object> resource) {

        public Object attribute(String key) {
            return attributes.get(key);
        }
    }

    public static final List<Received> SPANS = new CopyOnWriteArrayList<>();
    /** Status to answer (200; 503 for a collector that is down). */
    public static volatile int status = 200;
    public static volatile String base;
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            int answer = status;
            if (answer == 200) {
                ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
                for (ResourceSpans rs : request.getResourceSpansList()) {
                    Map<String, Object> resource = map(rs.getResource().getAttributesList());
                    for (ScopeSpans ss : rs.getScopeSpansList()) {
                        for (Span s : ss.getSpansList()) {
                            SPANS.add(new Received(path, authorization, hex(s.getTraceId().toByteArray()),
                                    hex(s.getSpanId().toByteArray()), hex(s.getParentSpanId().toByteArray()),
                                    s.getName(), s.getStartTimeUnixNano(), s.getEndTimeUnixNano(),
                                    map(s.getAttributesList()), s.getEventsList().stream()
                                            .map(io.opentelemetry.proto.trace.v1.Span.Event::getName).toList(),
                                    resource));
                        }
                    }
                }
            }
            byte[] out = new byte[0];
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(answer, out.length == 0 ? -1 : out.length);
            exchange.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of("quarkus.otel.sdk.disabled", "false",
                "quarkus.otel.exporter.otlp.traces.endpoint", base + "/collector",
                "quarkus.otel.exporter.otlp.traces.protocol", "http/protobuf",
                "quarkus.otel.bsp.schedule.delay", "100ms",
                // the REST requests' own spans are not what these tests read
                "quarkus.otel.traces.sampler", "parentbased_always_on");
    }

    private static Map<String, Object> map(List<KeyValue> values) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (KeyValue kv : values) {
            AnyValue v = kv.getValue();
            out.put(kv.getKey(), switch (v.getValueCase()) {
                case INT_VALUE -> v.getIntValue();
                case DOUBLE_VALUE -> v.getDoubleValue();
                case BOOL_VALUE -> v.getBoolValue();
                default -> v.getStringValue();
            });
        }
        return out;
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
