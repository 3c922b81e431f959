package dev.voiceagent.adapters.outbound.tracing;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Finished spans queued for their exporter: a bounded queue (a span that does not fit is dropped and counted, never
 * waited for), drained by one virtual thread in batches of at most {@link #BATCH} every {@link #DELAY_MS} ms, each
 * batch exported and its outcome counted. A call's loop only ever offers to the queue.
 */
final class QueuedSpans implements SpanProcessor {

    static final int BATCH = 512;
    static final long DELAY_MS = 500;
    private static final long EXPORT_TIMEOUT_S = 15;

    private final BlockingQueue<SpanData> queue;
    private final SpanExporter exporter;
    private final TraceExport counts;
    private final String destination;
    private final Thread drain;
    private volatile boolean stopping;

    QueuedSpans(SpanExporter exporter, int capacity, TraceExport counts, String destination) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.exporter = exporter;
        this.counts = counts;
        this.destination = destination;
        this.drain = Thread.ofVirtual().name("trace-export-" + destination).start(this::drain);
    }

    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {
    }

    @Override
    public boolean isStartRequired() {
        return false;
    }

    @Override
    public void onEnd(ReadableSpan span) {
        if (!span.getSpanContext().isSampled() || stopping || !queue.offer(span.toSpanData())) {
            counts.dropped(destination, 1);
        }
    }

    @Override
    public boolean isEndRequired() {
        return true;
    }

    private void drain() {
        List<SpanData> batch = new ArrayList<>(BATCH);
        while (!stopping || !queue.isEmpty()) {
            try {
                SpanData first = queue.poll(DELAY_MS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                if (!stopping) {
                    Thread.sleep(DELAY_MS); // a turn's spans come together: one request for them
                }
                queue.drainTo(batch, BATCH - 1);
                export(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopping = true;
            } finally {
                batch.clear();
            }
        }
    }

    private void export(List<SpanData> batch) {
        int n = batch.size();
        CompletableResultCode result = exporter.export(List.copyOf(batch)).join(EXPORT_TIMEOUT_S, TimeUnit.SECONDS);
        if (result.isSuccess()) {
            counts.exported(destination, n);
        } else {
            counts.failed(destination, n);
        }
    }

    @Override
    public CompletableResultCode shutdown() {
        stopping = true;
        try {
            drain.join(TimeUnit.SECONDS.toMillis(EXPORT_TIMEOUT_S));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return exporter.shutdown();
    }

    @Override
    public CompletableResultCode forceFlush() {
        return CompletableResultCode.ofSuccess();
    }
}
