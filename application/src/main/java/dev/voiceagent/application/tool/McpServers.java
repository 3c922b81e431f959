package dev.voiceagent.application.tool;

import dev.voiceagent.application.shared.OutboundRefusedException;
import dev.voiceagent.application.shared.UpstreamServiceException;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Out-port: a Model Context Protocol server reached over the streamable HTTP transport (through the address
 * guard). A refused address fails with {@link OutboundRefusedException}; a
 * server that cannot be reached, refuses or answers an error with
 * {@link UpstreamServiceException} carrying its message.
 */
public interface McpServers {

    /** A tool the server offers: its name, description and JSON schema for the arguments. */
    record McpTool(String name, String description, Map<String, Object> inputSchema) {
    }

    /** Every tool the server lists (all pages). */
    Uni<List<McpTool>> listTools(String url, Map<String, String> headers, Duration timeout);
}
