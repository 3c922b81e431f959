package dev.voiceagent.deploy;

import dev.voiceagent.adapters.media.carrier.CarrierDialects;
import dev.voiceagent.adapters.media.carrier.DialectWarmUp;
import dev.voiceagent.adapters.media.webrtc.WebRtcWarmUp;
import dev.voiceagent.adapters.storage.recording.TempFileCallRecorder;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;

/**
 * A replica reports ready only once it ran what every call runs, long enough for the JIT to have compiled it, so the
 * first callers a new replica gets are answered at warm speed: the caller's audio through voice activity (the
 * replica's detector, Silero's batch thread and ONNX Runtime's first inferences, at 8 and 16 kHz), a call's frames both
 * ways in every carrier's media dialect, a call's recording through a temporary file (deleted: nothing is stored),
 * WebRTC's self-check, handshakes and seconds of audio through its Opus codec, resampler and SRTP
 * ({@link WebRtcWarmUp}), then whole calls on the phone, the browser's WebSocket and WebRTC
 * through the media sockets, the session and the providers' adapters against in-process stand-ins
 * ({@link RehearsedCalls}). Off the start's path (one platform thread, started once the
 * application has started, so start-up time is unchanged) and bounded by {@code voiceagent.warm-up.budget}: past it
 * the replica is ready anyway. The HTTP API serves meanwhile; only {@code /q/health/ready} says DOWN.
 */
@ApplicationScoped
@Readiness
public class WarmUp implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(WarmUp.class);
    /** The most calls' windows the voice activity stage puts in one of the detector's batches. */
    static final int STREAMS = 64;

    private final VoiceActivityDetector detector;
    private final WebRtcWarmUp webRtc;
    private final TempFileCallRecorder recorder;
    /** Null: no whole calls (a unit test's warm-up). */
    private final RehearsedCalls calls;
    private final VoiceAgentConfig.WarmUpConfig config;
    private final CountDownLatch done = new CountDownLatch(1);
    private final Map<String, Object> report = new LinkedHashMap<>();
    private final boolean migrateOnly;
    private volatile boolean stopping;

    @Inject
    public WarmUp(VoiceActivityDetector detector, WebRtcWarmUp webRtc, TempFileCallRecorder recorder,
            RehearsedCalls calls, VoiceAgentConfig config) {
        this(detector, webRtc, recorder, calls, config.warmUp(), config.migrateOnly());
    }

    WarmUp(VoiceActivityDetector detector, WebRtcWarmUp webRtc, TempFileCallRecorder recorder,
            VoiceAgentConfig.WarmUpConfig config) {
        this(detector, webRtc, recorder, null, config, false);
    }

    private WarmUp(VoiceActivityDetector detector, WebRtcWarmUp webRtc, TempFileCallRecorder recorder,
            RehearsedCalls calls, VoiceAgentConfig.WarmUpConfig config, boolean migrateOnly) {
        this.detector = detector;
        this.webRtc = webRtc;
        this.recorder = recorder;
        this.calls = calls;
        this.config = config;
        this.migrateOnly = migrateOnly;
    }

    /** The process is stopping: the warm-up ends where it is (its detector is about to close). */
    @PreDestroy
    void stop() {
        stopping = true;
    }

    void onStart(@Observes StartupEvent event) {
        if (migrateOnly) { // the migration Job's process: it exits once migrated and takes no call
            done.countDown();
            return;
        }
        if (!config.enabled()) { // ready at once; WebRTC's self-check still says at start whether browsers can call
            done.countDown();
            Thread.ofVirtual().name("webrtc-self-check").start(webRtc::selfCheck);
            return;
        }
        Thread.ofPlatform().daemon().name("warm-up").start(this::run);
    }

    @Override
    public HealthCheckResponse call() {
        boolean warm = done.getCount() == 0;
        var response = HealthCheckResponse.named("warm-up").status(warm).withData("done", warm);
        synchronized (report) {
            report.forEach((stage, value) -> response.withData(stage, String.valueOf(value)));
        }
        return response.build();
    }

    /** Whether the warm-up is over (done, failed or out of budget). */
    public boolean await(Duration wait) throws InterruptedException {
        return done.await(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Each stage's outcome: its time in ms, or why it stopped. */
    public Map<String, Object> report() {
        synchronized (report) {
            return Collections.unmodifiableMap(new LinkedHashMap<>(report));
        }
    }

    void run() {
        long started = System.nanoTime();
        long deadline = started + config.budget().toNanos();
        try {
            stage("voice_activity_ms", deadline, () -> voiceActivity(deadline));
            stage("carrier_media_ms", deadline, () -> DialectWarmUp.exercise(CarrierDialects.ALL,
                    config.seconds() * 50));
            // the rehearsed calls record nothing: a call's recording, written to a temporary file and deleted
            stage("recording_ms", deadline, () -> recorder.rehearse(Math.max(1, config.seconds() / 4)));
            stage("webrtc_ms", deadline, () -> {
                if (webRtc.selfCheck()) {
                    webRtc.exercise(config.handshakes(), config.seconds(), deadline);
                }
            });
            if (calls != null && config.calls() + config.browserCalls() > 0) {
                stage("calls_ms", deadline, () -> {
                    RehearsedCalls.Report done = calls.run(config.calls(), config.browserCalls(),
                            Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                    record("calls", done.summary());
                    if (done.ended() < done.calls()) {
                        throw new IllegalStateException(done.summary());
                    }
                });
            }
            if (!stopping) {
                // what the warm-up left (its calls' buffers, JSON, promoted while they talked) is collected now, not
                // by a full collection in the middle of the replica's first calls
                stage("collected_ms", Long.MAX_VALUE, System::gc);
            }
        } finally {
            long ms = (System.nanoTime() - started) / 1_000_000;
            synchronized (report) {
                report.put("total_ms", ms);
            }
            done.countDown();
            LOG.infof("warm-up done in %d ms, ready for calls: %s", ms, report());
        }
    }

    private interface Stage {
        void run() throws Exception;
    }

    private void stage(String name, long deadline, Stage stage) {
        if (stopping) {
            record(name, "skipped: stopping");
            return;
        }
        if (System.nanoTime() >= deadline) {
            record(name, "skipped: budget spent");
            return;
        }
        long started = System.nanoTime();
        try {
            stage.run();
            record(name, (System.nanoTime() - started) / 1_000_000);
        } catch (Exception | LinkageError e) {
            // a stage that cannot run is no reason to keep the replica out of service: its calls are merely slower
            if (!stopping) {
                LOG.warnf("warm-up: %s failed: %s", name, e.toString());
            }
            record(name, "failed: " + e);
        }
    }

    private void record(String name, Object value) {
        synchronized (report) {
            report.put(name, value);
        }
    }

    /**
     * Windows of speech-like audio through the replica's detector at both rates, as calls send them (each stream's
     * next window once the previous one was answered: Silero keeps each call's state), from 1 to {@link #STREAMS}
     * streams at once in turn, so that the detector's batches take every size up to that (ONNX Runtime plans each new
     * batch shape on its first run).
     */
    private void voiceActivity(long deadline) throws InterruptedException {
        int rounds = config.seconds() * 1_000 / detector.windowMillis() / 8;
        for (int rate : new int[] {8_000, 16_000}) {
            int size = rate * detector.windowMillis() / 1_000;
            VoiceActivityDetector.Stream[] streams = new VoiceActivityDetector.Stream[STREAMS];
            for (int i = 0; i < streams.length; i++) {
                streams[i] = detector.open(rate);
            }
            try {
                for (int w = 0; w < rounds && System.nanoTime() < deadline && !stopping; w++) {
                    int at = 1 + w % STREAMS;
                    CountDownLatch answered = new CountDownLatch(at);
                    for (int i = 0; i < at; i++) {
                        short[] window = new short[size];
                        for (int s = 0; s < size; s++) {
                            double t = (w * size + s) / (double) rate;
                            window[s] = (short) ((w % 10 < 6 ? 4_000 : 30) * Math.sin(2 * Math.PI * (140 + 5 * i) * t));
                        }
                        streams[i].window(window, p -> answered.countDown());
                    }
                    if (!answered.await(2, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the voice activity detector did not answer within 2 s");
                    }
                }
            } finally {
                for (VoiceActivityDetector.Stream stream : streams) {
                    stream.close();
                }
            }
        }
    }
}
