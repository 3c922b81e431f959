package dev.voiceagent.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.media.webrtc.WebRtcWarmUp;
import dev.voiceagent.adapters.storage.recording.TempFileCallRecorder;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleConsumer;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The replica's warm-up: not ready until it ran (or its budget passed), and what it ran. */
class WarmUpTest {

    /** Its store is none: a rehearsal stores nothing (a put would fail the warm-up's recording stage). */
    private static final TempFileCallRecorder RECORDER = new TempFileCallRecorder(null);

    private final ScheduledExecutorService detectorThread = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        detectorThread.shutdownNow();
    }

    /** A detector that answers every window on its own thread (as Silero's batch thread does), counted by rate. */
    final class CountingDetector implements VoiceActivityDetector {
        final Map<Integer, AtomicInteger> windows = new ConcurrentHashMap<>();
        final AtomicInteger closed = new AtomicInteger();
        volatile boolean answers = true;

        @Override
        public Stream open(int sampleRate) {
            return new Stream() {
                @Override
                public void window(short[] samples, DoubleConsumer answer) {
                    assertThat(samples).hasSize(sampleRate * 32 / 1_000);
                    windows.computeIfAbsent(sampleRate, r -> new AtomicInteger()).incrementAndGet();
                    if (answers) {
                        detectorThread.execute(() -> answer.accept(0.9));
                    }
                }

                @Override
                public void close() {
                    closed.incrementAndGet();
                }
            };
        }

        @Override
        public int windowMillis() {
            return 32;
        }
    }

    private static VoiceAgentConfig.WarmUpConfig config(Duration budget, int seconds) {
        return config(true, budget, seconds);
    }

    private static VoiceAgentConfig.WarmUpConfig config(boolean enabled, Duration budget, int seconds) {
        return new VoiceAgentConfig.WarmUpConfig() {
            @Override
            public boolean enabled() {
                return enabled;
            }

            @Override
            public Duration budget() {
                return budget;
            }

            @Override
            public int seconds() {
                return seconds;
            }

            @Override
            public int handshakes() {
                return 1;
            }

            @Override
            public int calls() {
                return 0;
            }

            @Override
            public int browserCalls() {
                return 0;
            }
        };
    }

    @Test
    void theReplicaIsReadyOnlyOnceEveryStageRanAndTheReadinessCheckSaysWhatEachTook() throws Exception {
        CountingDetector detector = new CountingDetector();
        WarmUp warmUp = new WarmUp(detector, new WebRtcWarmUp(), RECORDER, config(Duration.ofSeconds(60), 2));
        assertThat(warmUp.call().getStatus()).as("not ready before it ran").isEqualTo(HealthCheckResponse.Status.DOWN);

        warmUp.run();

        HealthCheckResponse ready = warmUp.call();
        assertThat(ready.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(ready.getData().orElseThrow()).containsEntry("done", true)
                .containsKeys("voice_activity_ms", "carrier_media_ms", "recording_ms", "webrtc_ms", "total_ms");
        assertThat(warmUp.report().values()).as("every stage ran: a time, no failure")
                .allSatisfy(value -> assertThat(value).isInstanceOf(Long.class));
        // 2 s of 32 ms windows at each rate make 7 rounds, of 1, 2, ... 7 streams at once (every batch size in turn)
        assertThat(detector.windows.get(8_000)).hasValue(1 + 2 + 3 + 4 + 5 + 6 + 7);
        assertThat(detector.windows.get(16_000)).hasValue(1 + 2 + 3 + 4 + 5 + 6 + 7);
        assertThat(detector.closed).as("its streams closed").hasValue(2 * WarmUp.STREAMS);
        assertThat(ready.getData().orElseThrow()).as("what the warm-up left is collected before ready")
                .containsKey("collected_ms");
        assertThat(warmUp.await(Duration.ZERO)).isTrue();
    }

    @Test
    void aStageThatFailsIsReportedAndTheReplicaIsReadyAnyway() throws Exception {
        CountingDetector detector = new CountingDetector();
        detector.answers = false; // a detector that never answers
        WarmUp warmUp = new WarmUp(detector, new WebRtcWarmUp(), RECORDER, config(Duration.ofSeconds(60), 1));

        warmUp.run();

        assertThat(warmUp.call().getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(warmUp.report().get("voice_activity_ms")).asString().startsWith("failed:")
                .contains("did not answer within 2 s");
        assertThat(warmUp.report().get("webrtc_ms")).as("the next stages still ran").isInstanceOf(Long.class);
    }

    @Test
    void pastItsBudgetTheWarmUpSkipsWhatIsLeftAndTheReplicaIsReady() throws Exception {
        WarmUp warmUp = new WarmUp(new CountingDetector(), new WebRtcWarmUp(), RECORDER, config(Duration.ZERO, 40));

        warmUp.run();

        assertThat(warmUp.call().getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(warmUp.report()).containsEntry("voice_activity_ms", "skipped: budget spent")
                .containsEntry("carrier_media_ms", "skipped: budget spent")
                .containsEntry("webrtc_ms", "skipped: budget spent");
    }

    @Test
    void turnedOffTheReplicaIsReadyAtOnceAndWebRtcsSelfCheckStillRunsAtStart() throws Exception {
        CountingDetector detector = new CountingDetector();
        WebRtcWarmUp webRtc = new WebRtcWarmUp();
        WarmUp warmUp = new WarmUp(detector, webRtc, RECORDER, config(false, Duration.ofSeconds(60), 40));

        warmUp.onStart(null);

        assertThat(warmUp.call().getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(webRtc.checked().get(30, java.util.concurrent.TimeUnit.SECONDS)).isNotNegative();
        assertThat(detector.windows).as("nothing warmed").isEmpty();
    }
}
