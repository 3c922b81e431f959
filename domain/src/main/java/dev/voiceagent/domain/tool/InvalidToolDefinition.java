package dev.voiceagent.domain.tool;

import dev.voiceagent.domain.model.SettingsProblem;
import java.util.List;

/** A tool definition refused field by field (a 422 list, each problem at its location from the body's root). */
public class InvalidToolDefinition extends RuntimeException {

    private final transient List<SettingsProblem> problems;

    public InvalidToolDefinition(List<SettingsProblem> problems) {
        super(problems.getFirst().msg(), null, false, false);
        this.problems = List.copyOf(problems);
    }

    public List<SettingsProblem> problems() {
        return problems;
    }
}
