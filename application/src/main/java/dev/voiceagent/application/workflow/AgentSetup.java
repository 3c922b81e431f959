package dev.voiceagent.application.workflow;

import java.util.List;

/** The checklist for taking an agent live; ready when every step is done. */
public record AgentSetup(long workflowId, boolean ready, List<Step> steps) {

    public record Step(String key, String title, boolean done, String detail) {
    }

    public static AgentSetup of(long workflowId, List<Step> steps) {
        return new AgentSetup(workflowId, steps.stream().allMatch(Step::done), List.copyOf(steps));
    }
}
