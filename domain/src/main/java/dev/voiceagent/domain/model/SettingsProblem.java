package dev.voiceagent.domain.model;

import java.util.List;

/** One reason a model configuration is refused: where (loc, from the body's root), what, and a type code. */
public record SettingsProblem(List<Object> loc, String msg, String type, Object input) {

    public SettingsProblem {
        loc = List.copyOf(loc);
    }
}
