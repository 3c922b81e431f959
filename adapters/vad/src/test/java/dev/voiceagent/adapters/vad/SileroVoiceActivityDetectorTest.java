package dev.voiceagent.adapters.vad;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real model (fetched and checked by the build) on ONNX Runtime, one stream and many at once. */
class SileroVoiceActivityDetectorTest {

    static SileroVoiceActivityDetector detector;

    @BeforeAll
    static void load() {
        detector = new SileroVoiceActivityDetector();
    }

    @AfterAll
    static void close() {
        detector.close();
    }

    /** A vowel-like sound: a 120 Hz glottal pulse train through two formant resonators, syllables at 4 Hz. */
    static short[][] voiced(int windows, long seed) {
        Random noise = new Random(seed);
        short[][] out = new short[windows][256];
        double y1 = 0, y2 = 0, z1 = 0, z2 = 0;
        for (int w = 0; w < windows; w++) {
            for (int i = 0; i < 256; i++) {
                int n = w * 256 + i;
                double t = n / 8_000.0;
                double pulse = n % (8_000 / 120) == 0 ? 1.0 : 0.0;
                double x = pulse + 0.01 * noise.nextGaussian();
                double f1 = resonate(x, 700, 130), f2 = 0;
                y2 = y1;
                y1 = f1;
                z2 = z1;
                z1 = resonate(x, 1_200, 150);
                f2 = z1;
                double envelope = 0.3 + 0.7 * Math.abs(Math.sin(2 * Math.PI * 2 * t));
                out[w][i] = (short) Math.max(-32_000, Math.min(32_000, 12_000 * envelope * (f1 + 0.6 * f2)));
            }
        }
        return out;
    }

    private static final double[][] MEMORY = new double[2][2];

    /** A second-order resonator at {@code hz} with bandwidth {@code bw} (state per centre frequency). */
    private static double resonate(double x, double hz, double bw) {
        int k = hz < 1_000 ? 0 : 1;
        double r = Math.exp(-Math.PI * bw / 8_000);
        double y = x + 2 * r * Math.cos(2 * Math.PI * hz / 8_000) * MEMORY[k][0] - r * r * MEMORY[k][1];
        MEMORY[k][1] = MEMORY[k][0];
        MEMORY[k][0] = y;
        return y * 0.05;
    }

    static List<Double> run(VoiceActivityDetector.Stream stream, short[][] windows) throws Exception {
        List<Double> out = new ArrayList<>();
        for (short[] window : windows) {
            CompletableFuture<Double> p = new CompletableFuture<>();
            stream.window(window, p::complete);
            out.add(p.get(5, TimeUnit.SECONDS));
        }
        return out;
    }

    @Test
    void theModelLoadsAndSilenceIsNotSpeech() throws Exception {
        assertThat(detector.modelLoaded()).isTrue();
        assertThat(detector.windowMillis()).isEqualTo(32);
        List<Double> silence = run(detector.open(8_000), new short[30][256]);
        assertThat(silence).allSatisfy(p -> assertThat(p).isLessThan(0.1));
    }

    @Test
    void speechIsSpeechAndTheGapsAroundItAreNot() throws Exception {
        short[] line = Speech.say("Hello, I would like to know where my order is, please.");
        int windows = line.length / 256;
        short[][] audio = new short[windows + 30][256];
        for (int w = 0; w < windows; w++) {
            System.arraycopy(line, w * 256, audio[w + 15], 0, 256);
        }
        List<Double> p = run(detector.open(8_000), audio);
        long speech = p.stream().filter(x -> x > 0.7).count();
        assertThat(speech).as("windows of the line heard as speech").isGreaterThan(windows / 2);
        assertThat(p.subList(0, 15)).allSatisfy(x -> assertThat(x).isLessThan(0.3));
        assertThat(p.subList(p.size() - 8, p.size())).allSatisfy(x -> assertThat(x).isLessThan(0.3));
    }

    @Test
    void manyCallsAtOnceGetTheAnswersEachWouldGetAlone() throws Exception {
        short[][] a = voiced(40, 1);
        List<Double> alone = run(detector.open(8_000), a);
        int calls = 12;
        List<VoiceActivityDetector.Stream> streams = new ArrayList<>();
        List<List<CompletableFuture<Double>>> answers = new ArrayList<>();
        for (int c = 0; c < calls; c++) {
            streams.add(detector.open(8_000));
            answers.add(new ArrayList<>());
        }
        short[][] b = voiced(40, 2);
        for (int w = 0; w < 40; w++) { // every call's next window is queued before the worker catches up
            for (int c = 0; c < calls; c++) {
                CompletableFuture<Double> p = new CompletableFuture<>();
                streams.get(c).window(c == 0 ? a[w] : b[w], p::complete);
                answers.get(c).add(p);
            }
        }
        for (int w = 0; w < 40; w++) {
            assertThat(answers.get(0).get(w).get(5, TimeUnit.SECONDS)).isCloseTo(alone.get(w),
                    org.assertj.core.data.Offset.offset(1e-4));
        }
        // a call's answers depend on its own past only: the same audio in two calls answers alike
        for (int w = 0; w < 40; w++) {
            assertThat(answers.get(1).get(w).get(5, TimeUnit.SECONDS)).isCloseTo(
                    answers.get(calls - 1).get(w).get(5, TimeUnit.SECONDS), org.assertj.core.data.Offset.offset(1e-4));
        }
    }

    /**
     * Both rates in one batch, then batches of other sizes: the batch memory is reused from one inference to the next
     * (direct buffers the model reads and writes), so a call's answers must not depend on what the calls before it in
     * that memory left there, nor on the other rate's calls beside it.
     */
    @Test
    void bothRatesInOneBatchAndBatchesOfEverySizeAnswerAsAlone() throws Exception {
        short[][] narrow = voiced(30, 3);
        short[][] wide = new short[30][512];
        for (int w = 0; w < 30; w++) {
            for (int j = 0; j < 512; j++) {
                wide[w][j] = narrow[w][j / 2];
            }
        }
        List<Double> narrowAlone = run(detector.open(8_000), narrow);
        List<Double> wideAlone = run(detector.open(16_000), wide);
        int calls = 9;
        List<VoiceActivityDetector.Stream> streams = new ArrayList<>();
        List<List<CompletableFuture<Double>>> answers = new ArrayList<>();
        for (int c = 0; c < calls; c++) {
            streams.add(detector.open(c % 2 == 0 ? 8_000 : 16_000));
            answers.add(new ArrayList<>());
        }
        for (int w = 0; w < 30; w++) {
            for (int c = 0; c < calls; c++) {
                CompletableFuture<Double> p = new CompletableFuture<>();
                streams.get(c).window(c % 2 == 0 ? narrow[w] : wide[w], p::complete);
                answers.get(c).add(p);
            }
        }
        for (int c = 0; c < calls; c++) {
            List<Double> alone = c % 2 == 0 ? narrowAlone : wideAlone;
            for (int w = 0; w < 30; w++) {
                assertThat(answers.get(c).get(w).get(5, TimeUnit.SECONDS)).as("call %d window %d", c, w)
                        .isCloseTo(alone.get(w), org.assertj.core.data.Offset.offset(1e-4));
            }
        }
        assertThat(run(detector.open(16_000), wide)).as("alone again, after the larger batches")
                .usingElementComparator((x, y) -> Math.abs(x - y) < 1e-4 ? 0 : 1).isEqualTo(wideAlone);
        for (List<Double> alone : List.of(narrowAlone, wideAlone)) { // answers that move: a comparison that could fail
            assertThat(alone.stream().mapToDouble(Double::doubleValue).max().orElseThrow()
                    - alone.stream().mapToDouble(Double::doubleValue).min().orElseThrow()).isGreaterThan(0.01);
        }
    }

    /**
     * A replica shutting down while calls (or its warm-up) are being heard: the model was closed under a running
     * inference and the JVM crashed in ONNX Runtime (exit 134). Now the batch thread stops first; this test's JVM
     * would die with it.
     */
    @Test
    void closingWhileWindowsAreInferredStopsTheThreadFirstAndDoesNotCrash() throws Exception {
        for (int round = 0; round < 5; round++) {
            SileroVoiceActivityDetector busy = new SileroVoiceActivityDetector();
            java.util.concurrent.atomic.AtomicBoolean feeding = new java.util.concurrent.atomic.AtomicBoolean(true);
            java.util.concurrent.atomic.AtomicInteger answered = new java.util.concurrent.atomic.AtomicInteger();
            short[][] speech = voiced(50, round);
            List<Thread> callers = new java.util.ArrayList<>();
            for (int c = 0; c < 8; c++) {
                VoiceActivityDetector.Stream stream = busy.open(8_000);
                callers.add(Thread.ofPlatform().start(() -> { // as a call: its next window once the last was answered
                    for (int w = 0; feeding.get(); w = (w + 1) % speech.length) {
                        CompletableFuture<Double> answer = new CompletableFuture<>();
                        stream.window(speech[w], p -> {
                            answered.incrementAndGet();
                            answer.complete(p);
                        });
                        try {
                            answer.get(1, TimeUnit.SECONDS);
                        } catch (Exception closedMeanwhile) {
                            return;
                        }
                    }
                }));
            }
            long waitUntil = System.nanoTime() + 10_000_000_000L;
            while (answered.get() < 200 && System.nanoTime() < waitUntil) {
                Thread.sleep(1);
            }
            assertThat(answered.get()).as("windows being answered when it closes").isGreaterThanOrEqualTo(200);
            long started = System.nanoTime();
            busy.close();
            assertThat((System.nanoTime() - started) / 1_000_000).as("closed promptly").isLessThan(5_000);
            feeding.set(false);
            for (Thread caller : callers) {
                caller.join();
            }
        }
    }
}
