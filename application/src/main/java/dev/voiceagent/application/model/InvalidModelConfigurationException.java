package dev.voiceagent.application.model;

import dev.voiceagent.domain.model.SettingsProblem;
import java.util.List;

/** A model configuration refused field by field: a 422 listing each problem at its location. */
public class InvalidModelConfigurationException extends RuntimeException {

    private final transient List<SettingsProblem> problems;

    public InvalidModelConfigurationException(List<SettingsProblem> problems) {
        super(problems.getFirst().msg(), null, false, false);
        this.problems = List.copyOf(problems);
    }

    public List<SettingsProblem> problems() {
        return problems;
    }
}
