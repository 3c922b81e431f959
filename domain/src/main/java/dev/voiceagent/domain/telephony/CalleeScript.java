package dev.voiceagent.domain.telephony;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.List;

/**
 * What the simulator's person on the line says when a simulated call talks: its lines in order, each after the agent
 * finished speaking and {@code pauseMs} of silence; the line {@code interruptLine} (1-based, optional) is said over
 * the agent instead, {@code interruptAfterMs} into its answer (a barge-in). After its last line was answered the
 * callee hangs up, unless the agent ended the call first.
 */
public record CalleeScript(List<String> lines, int pauseMs, Integer interruptLine, int interruptAfterMs) {

    public static final int MAX_LINES = 20;
    public static final int MAX_LINE_CHARS = 300;
    public static final int DEFAULT_PAUSE_MS = 700;
    public static final int DEFAULT_INTERRUPT_AFTER_MS = 1_200;

    public CalleeScript {
        if (lines == null || lines.isEmpty() || lines.size() > MAX_LINES) {
            throw new DomainRuleViolation("lines must hold 1 to " + MAX_LINES + " lines for the callee to say");
        }
        for (String line : lines) {
            if (line == null || line.isBlank() || line.length() > MAX_LINE_CHARS) {
                throw new DomainRuleViolation("each of lines must be 1 to " + MAX_LINE_CHARS + " characters");
            }
        }
        lines = lines.stream().map(String::strip).toList();
        if (pauseMs < 0 || pauseMs > 10_000) {
            throw new DomainRuleViolation("pause_ms must be between 0 and 10000");
        }
        if (interruptLine != null && (interruptLine < 2 || interruptLine > lines.size())) {
            throw new DomainRuleViolation("interrupt_line must name one of lines after the first (2 to "
                    + lines.size() + "): the callee interrupts the agent's answer to the line before it");
        }
        if (interruptAfterMs < 0 || interruptAfterMs > 10_000) {
            throw new DomainRuleViolation("interrupt_after_ms must be between 0 and 10000");
        }
    }

    /** Whether the line at {@code index} (0-based) is said over the agent. */
    public boolean interrupts(int index) {
        return interruptLine != null && interruptLine == index + 1;
    }
}
