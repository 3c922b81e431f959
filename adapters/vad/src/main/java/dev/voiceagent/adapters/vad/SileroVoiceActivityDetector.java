package dev.voiceagent.adapters.vad;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import dev.voiceagent.domain.audio.Loudness;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.DoubleConsumer;

/**
 * Silero VAD (v5/v6 ONNX, from the npm package named in ADR 12) on ONNX Runtime: one session for the replica, one
 * platform thread running it, and every call's pending window in one batch (state [2, B, 128], input [B, context +
 * window]), so forty calls cost one inference per 32 ms, not forty. Each call keeps its own recurrent state and the
 * last 32 samples (64 at 16 kHz) as context, as Silero's reference code does. A call has at most one window in a batch:
 * its next one waits for the state the previous one leaves. Answers are handed back on this thread; the session moves
 * them to the call's loop. Without the model (or ONNX Runtime), windows are answered by their energy, with a warning.
 */
@Singleton
public class SileroVoiceActivityDetector implements VoiceActivityDetector {

    private static final System.Logger LOG = System.getLogger(SileroVoiceActivityDetector.class.getName());
    static final String MODEL = "/silero/silero_vad.onnx";
    static final int MAX_BATCH = 256;

    private record Request(SileroStream stream, short[] samples, DoubleConsumer answer) {
    }

    private final LinkedBlockingQueue<Request> queue = new LinkedBlockingQueue<>();
    private final OrtEnvironment environment;
    private final OrtSession session;
    private final Thread worker;
    /** The model's two outputs, in order: the speech probability [B, 1] and the next state [2, B, 128]. */
    private final List<String> outputs;
    /** Each rate's batch memory, made on the worker's first batch at that rate (the worker's only). */
    private Tensors narrow;
    private Tensors wide;
    private volatile boolean running = true;

    public SileroVoiceActivityDetector() {
        OrtSession loaded = null;
        OrtEnvironment env = null;
        try (InputStream model = SileroVoiceActivityDetector.class.getResourceAsStream(MODEL)) {
            if (model == null) {
                throw new IOException("no " + MODEL + " on the classpath");
            }
            env = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            loaded = env.createSession(model.readAllBytes(), options);
        } catch (IOException | OrtException | UnsatisfiedLinkError | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Silero VAD unavailable ({0}): voice activity by energy only", e);
        }
        this.environment = env;
        this.session = loaded;
        this.outputs = loaded == null ? List.of() : List.copyOf(loaded.getOutputNames());
        this.worker = Thread.ofPlatform().daemon().name("silero-vad").start(this::work);
    }

    /** Whether the model runs (false: the energy fallback answers). */
    public boolean modelLoaded() {
        return session != null;
    }

    /**
     * Stops the batch thread and only then closes the model: closing it while an inference runs on that thread crashed
     * the JVM in ONNX Runtime (a replica shutting down while its warm-up or a call was being heard). The thread ends
     * after its current batch (an inference takes milliseconds); if it has not within a few seconds, the session is
     * left to the process's exit rather than closed under it.
     */
    @PreDestroy
    void close() {
        running = false;
        worker.interrupt();
        try {
            worker.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (worker.isAlive()) {
            LOG.log(System.Logger.Level.WARNING, "Silero VAD's thread did not stop: its model is left open");
            return;
        }
        try {
            for (Tensors t : new Tensors[] {narrow, wide}) {
                if (t != null) {
                    t.rate.close();
                }
            }
            if (session != null) {
                session.close();
            }
        } catch (OrtException ignored) {
            // shutting down
        }
    }

    @Override
    public int windowMillis() {
        return 32;
    }

    @Override
    public Stream open(int sampleRate) {
        if (sampleRate != 8_000 && sampleRate != 16_000) {
            throw new IllegalArgumentException("Silero VAD takes 8 or 16 kHz, not " + sampleRate);
        }
        return new SileroStream(sampleRate);
    }

    final class SileroStream implements Stream {
        final int rate;
        final float[] state = new float[2 * 128];
        final float[] context;
        volatile boolean closed;

        SileroStream(int rate) {
            this.rate = rate;
            this.context = new float[rate == 16_000 ? 64 : 32];
        }

        int window() {
            return rate == 16_000 ? 512 : 256;
        }

        @Override
        public void window(short[] samples, DoubleConsumer answer) {
            if (samples.length != window()) {
                throw new IllegalArgumentException("a Silero window is " + window() + " samples, not " + samples.length);
            }
            if (!closed) {
                queue.add(new Request(this, samples, answer));
            }
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private void work() {
        Deque<Request> pending = new ArrayDeque<>();
        while (running) {
            try {
                if (pending.isEmpty()) {
                    pending.add(queue.take());
                }
            } catch (InterruptedException e) {
                return;
            }
            queue.drainTo(pending);
            List<Request> batch = new ArrayList<>();
            Deque<Request> rest = new ArrayDeque<>();
            Map<SileroStream, Boolean> inBatch = new IdentityHashMap<>();
            for (Request r : pending) {
                if (batch.size() < MAX_BATCH && inBatch.putIfAbsent(r.stream(), true) == null) {
                    batch.add(r);
                } else {
                    rest.addLast(r); // its stream's previous window is in this batch: the next one waits for it
                }
            }
            pending = rest;
            answer(batch);
        }
    }

    private void answer(List<Request> batch) {
        List<Request> live = batch.stream().filter(r -> !r.stream().closed).toList();
        if (live.isEmpty()) {
            return;
        }
        double[] probabilities;
        try {
            probabilities = session == null ? energy(live) : infer(live);
        } catch (OrtException | RuntimeException | LinkageError e) {
            LOG.log(System.Logger.Level.WARNING, "Silero VAD failed on a batch of {0}: {1}", live.size(), e.toString());
            probabilities = energy(live);
        }
        for (int i = 0; i < live.size(); i++) {
            try {
                live.get(i).answer().accept(probabilities[i]);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "a VAD answer failed: {0}", e.toString());
            }
        }
    }

    private static double[] energy(List<Request> batch) {
        double[] out = new double[batch.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Loudness.speechConfidence(batch.get(i).samples());
        }
        return out;
    }

    /** One inference per sample rate in the batch. */
    private double[] infer(List<Request> batch) throws OrtException {
        double[] out = new double[batch.size()];
        for (int rate : new int[] {8_000, 16_000}) {
            List<Integer> indices = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                if (batch.get(i).stream().rate == rate) {
                    indices.add(i);
                }
            }
            if (!indices.isEmpty()) {
                infer(batch, indices, rate, out);
            }
        }
        return out;
    }

    private void infer(List<Request> batch, List<Integer> indices, int rate, double[] out) throws OrtException {
        int b = indices.size();
        Tensors t = tensors(rate);
        int contextSize = t.context;
        int width = t.width;
        t.input.clear(); // absolute puts stay within the limit: the last batch's, until cleared
        t.state.clear();
        for (int k = 0; k < b; k++) {
            Request r = batch.get(indices.get(k));
            SileroStream s = r.stream();
            t.input.put(k * width, s.context, 0, contextSize);
            short[] samples = r.samples();
            for (int j = 0; j < samples.length; j++) {
                t.input.put(k * width + contextSize + j, samples[j] / 32768f);
            }
            t.state.put(k * 128, s.state, 0, 128); // layer 0 of [2, B, 128]
            t.state.put(b * 128 + k * 128, s.state, 128, 128); // layer 1
        }
        try (OnnxTensor in = OnnxTensor.createTensor(environment, t.input.limit(b * width),
                        new long[] {b, width});
                OnnxTensor st = OnnxTensor.createTensor(environment, t.state.limit(2 * b * 128),
                        new long[] {2, b, 128});
                OnnxTensor probability = OnnxTensor.createTensor(environment, t.output.clear().limit(b),
                        new long[] {b, 1});
                OnnxTensor next = OnnxTensor.createTensor(environment, t.next.clear().limit(2 * b * 128),
                        new long[] {2, b, 128});
                OrtSession.Result ignored = session.run(Map.of("input", in, "state", st, "sr", t.rate),
                        Map.of(outputs.get(0), probability, outputs.get(1), next))) {
            for (int k = 0; k < b; k++) {
                SileroStream s = batch.get(indices.get(k)).stream();
                t.next.get(k * 128, s.state, 0, 128);
                t.next.get(b * 128 + k * 128, s.state, 128, 128);
                t.input.get(k * width + width - contextSize, s.context, 0, contextSize);
                out[indices.get(k)] = t.output.get(k);
            }
        }
    }

    private Tensors tensors(int rate) throws OrtException {
        if (rate == 16_000) {
            return wide != null ? wide : (wide = new Tensors(rate));
        }
        return narrow != null ? narrow : (narrow = new Tensors(rate));
    }

    /**
     * The memory of one rate's batches, the largest batch's size, reused by every inference (the worker thread's own):
     * direct buffers that ONNX Runtime reads the inputs from and writes the outputs into (pinned outputs), so a batch
     * allocates no arrays (Java arrays per batch, and ONNX Runtime's copies of them, were a quarter of what forty calls
     * allocated).
     */
    private final class Tensors {
        final int context;
        final int width;
        final FloatBuffer input;
        final FloatBuffer state;
        final FloatBuffer output;
        final FloatBuffer next;
        final OnnxTensor rate;

        Tensors(int rate) throws OrtException {
            this.context = rate == 16_000 ? 64 : 32;
            this.width = context + (rate == 16_000 ? 512 : 256);
            this.input = direct(MAX_BATCH * width);
            this.state = direct(2 * MAX_BATCH * 128);
            this.output = direct(MAX_BATCH);
            this.next = direct(2 * MAX_BATCH * 128);
            this.rate = OnnxTensor.createTensor(environment, new long[] {rate});
        }

        private static FloatBuffer direct(int floats) {
            return ByteBuffer.allocateDirect(floats * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();
        }
    }
}
