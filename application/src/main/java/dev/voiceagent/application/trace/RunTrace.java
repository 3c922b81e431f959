package dev.voiceagent.application.trace;

import java.time.Instant;
import java.util.Map;

/** One run's open trace: its finished spans go under its top span, which {@link #end} closes. */
public interface RunTrace {

    RunTrace NONE = new RunTrace() {
        @Override
        public boolean recording() {
            return false;
        }

        @Override
        public void span(TraceSpan span) {
        }

        @Override
        public void end(Instant at, Map<String, Object> attributes) {
        }
    };

    /** Whether spans go anywhere (a session need not assemble them otherwise). */
    boolean recording();

    /** A finished span (with its children) under the top span. */
    void span(TraceSpan span);

    /** The top span ends at {@code at} with these attributes added. */
    void end(Instant at, Map<String, Object> attributes);
}
