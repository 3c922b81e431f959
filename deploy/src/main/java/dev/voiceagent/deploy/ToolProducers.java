package dev.voiceagent.deploy;

import dev.voiceagent.application.tool.CredentialRepository;
import dev.voiceagent.application.tool.CredentialService;
import dev.voiceagent.application.tool.McpServers;
import dev.voiceagent.application.tool.ToolHttp;
import dev.voiceagent.application.tool.ToolRepository;
import dev.voiceagent.application.tool.ToolService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/** Credentials and tools; the outbound ports (tool HTTP, MCP servers) are the models adapter's guarded ones. */
@ApplicationScoped
public class ToolProducers {

    @Produces
    @Singleton
    CredentialService credentials(CredentialRepository repository, Clock clock) {
        return new CredentialService(repository, clock);
    }

    @Produces
    @Singleton
    ToolService tools(ToolRepository tools, CredentialRepository credentials, ToolHttp http, McpServers mcp,
            Clock clock) {
        return new ToolService(tools, credentials, http, mcp, clock);
    }
}
