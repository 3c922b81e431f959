package dev.voiceagent.adapters.outbound.mcp;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.shared.OutboundRefusedException;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.application.tool.McpServers;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import reactor.core.publisher.Mono;

/**
 * MCP servers through the Model Context Protocol Java SDK's client over {@link GuardedMcpTransport}: initialize,
 * then tools/list page after page (at most {@link #MAX_PAGES}), then the session is closed.
 */
@ApplicationScoped
@RegisterForReflection(targets = {McpSchema.class}, ignoreNested = false)
public class McpStreamableHttpServers implements McpServers {

    static final int MAX_PAGES = 50;

    private final GuardedHttp http;
    private final McpJsonMapper json;

    public McpStreamableHttpServers(GuardedHttp http) {
        this.http = http;
        ObjectMapper mapper = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        this.json = new JacksonMcpJsonMapper(mapper);
    }

    @Override
    public Uni<List<McpTool>> listTools(String url, Map<String, String> headers, Duration timeout) {
        return Uni.createFrom().completionStage(() -> {
            GuardedMcpTransport transport = new GuardedMcpTransport(http, url, headers, timeout, json);
            McpAsyncClient client = McpClient.async(transport).requestTimeout(timeout).initializationTimeout(timeout)
                    .clientInfo(new McpSchema.Implementation("voice-agent", "1.0.0"))
                    .jsonSchemaValidator(new DefaultJsonSchemaValidator())
                    .build();
            List<McpTool> out = new ArrayList<>();
            return client.initialize().then(page(client, null, out, 0))
                    .then(Mono.defer(() -> client.closeGracefully().onErrorResume(e -> Mono.empty())))
                    .then(Mono.fromSupplier(() -> List.copyOf(out)))
                    .onErrorMap(failure -> translate(url, timeout, failure))
                    .doFinally(signal -> client.close())
                    .toFuture();
        });
    }

    private static Mono<Void> page(McpAsyncClient client, String cursor, List<McpTool> out, int pages) {
        return Mono.defer(() -> client.listTools(cursor)).flatMap(result -> {
            if (result.tools() != null) {
                for (McpSchema.Tool t : result.tools()) {
                    Map<String, Object> schema = t.inputSchema() == null ? Map.of("type", "object")
                            : new LinkedHashMap<>(t.inputSchema());
                    out.add(new McpTool(t.name(), t.description(), schema));
                }
            }
            String next = result.nextCursor();
            if (next == null || next.isBlank() || pages + 1 >= MAX_PAGES) {
                return Mono.empty();
            }
            return page(client, next, out, pages + 1);
        });
    }

    static RuntimeException translate(String url, Duration timeout, Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof GuardedHttp.Refused refused) {
                return new OutboundRefusedException(refused.getMessage());
            }
            if (t instanceof GuardedHttp.Unreachable unreachable) {
                return new UpstreamServiceException("MCP server " + url + ": " + unreachable.getMessage());
            }
            if (t instanceof McpError error) {
                return new UpstreamServiceException("MCP server error: " + error.getMessage());
            }
            if (t instanceof TimeoutException) {
                return new UpstreamServiceException("MCP server " + url + " did not answer within "
                        + timeout.toSeconds() + " s");
            }
        }
        return new UpstreamServiceException("MCP server " + url + ": " + (failure.getMessage() == null
                ? failure.getClass().getSimpleName() : failure.getMessage()));
    }
}
