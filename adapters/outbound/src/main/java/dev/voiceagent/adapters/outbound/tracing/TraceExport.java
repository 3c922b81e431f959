package dev.voiceagent.adapters.outbound.tracing;

/** What became of the spans a trace queued (counted as metrics): sent, dropped when the queue was full, or refused. */
public interface TraceExport {

    TraceExport NONE = new TraceExport() {
        @Override
        public void exported(String destination, int spans) {
        }

        @Override
        public void dropped(String destination, int spans) {
        }

        @Override
        public void failed(String destination, int spans) {
        }
    };

    /** {@code destination}: langfuse, or handover (turns not made into spans at all): a bounded set. */
    void exported(String destination, int spans);

    void dropped(String destination, int spans);

    void failed(String destination, int spans);
}
