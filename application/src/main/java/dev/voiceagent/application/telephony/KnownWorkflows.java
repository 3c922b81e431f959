package dev.voiceagent.application.telephony;

import io.smallrye.mutiny.Uni;

/**
 * Out-port: whether the organization has a workflow, for a phone number that routes its inbound calls to one. Served
 * by the workflow repository (wired in the composition root), so telephony needs nothing else of workflows.
 */
@FunctionalInterface
public interface KnownWorkflows {

    Uni<Boolean> exists(long organizationId, long workflowId);
}
