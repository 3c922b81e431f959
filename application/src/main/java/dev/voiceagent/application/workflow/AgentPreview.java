package dev.voiceagent.application.workflow;

import java.util.List;
import java.util.Set;

/** The start node's greeting and every prompt rendered with the given variables, and what stays unresolved. */
public record AgentPreview(long workflowId, int versionNumber, String greeting, List<NodePrompt> prompts,
        Set<String> unresolvedVariables) {

    public record NodePrompt(String nodeId, String nodeType, String nodeName, String prompt) {
    }
}
