package dev.voiceagent.application.tool;

import dev.voiceagent.application.shared.OutboundRefusedException;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.domain.tool.HttpToolRequest;
import io.smallrye.mutiny.Uni;
import java.util.Map;

/**
 * Out-port: performs a tool's HTTP request through the installation's address guard. A refused address fails
 * with {@link OutboundRefusedException}; an unreachable host or a time-out with
 * {@link UpstreamServiceException}. Any answer, 4xx and 5xx included, is a reply.
 */
public interface ToolHttp {

    /**
     * The answer: its body cut at the cap ({@code truncated} says so) and, when it is JSON, parsed ({@code json}
     * maps, lists and scalars; null otherwise).
     */
    record Reply(int statusCode, Map<String, String> headers, String body, boolean truncated, Object json,
            long durationMs) {
    }

    Uni<Reply> send(HttpToolRequest request);
}
