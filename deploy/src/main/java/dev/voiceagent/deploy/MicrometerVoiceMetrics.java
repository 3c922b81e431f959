package dev.voiceagent.deploy;

import dev.voiceagent.application.voice.runtime.VoiceSessions;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The voice runtime's figures as Micrometer meters, scraped at /q/metrics (Prometheus). */
@ApplicationScoped
@Startup // every meter present from the start (a dashboard's rate() has a series to read), not from the first call
public class MicrometerVoiceMetrics implements VoiceMetrics {

    private final MeterRegistry registry;
    private final Timer answered;
    private final Timer interrupted;
    private final Counter resumed;
    private final Map<VoiceMetrics.Stage, Timer> stages = new EnumMap<>(VoiceMetrics.Stage.class);

    public MicrometerVoiceMetrics(MeterRegistry registry, VoiceSessions sessions) {
        this.registry = registry;
        Gauge.builder("voiceagent.voice.sessions.active", sessions, VoiceSessions::count)
                .description("Calls talking on this replica").register(registry);
        for (String mode : WorkflowRun.MODES) { // a closed set: the carriers, the browser's transports
            if (!"textchat".equals(mode)) {
                Gauge.builder("voiceagent.voice.calls.live", sessions, s -> s.count(mode)).tag("mode", mode)
                        .description("Calls talking on this replica, by carrier or browser transport")
                        .register(registry);
            }
        }
        for (String stage : List.of("stt", "llm", "tts", "media", "realtime")) { // present from the start, at 0
            registry.counter("voiceagent.voice.provider_errors", "stage", stage);
        }
        for (String stage : List.of("stt", "llm", "tts")) {
            registry.counter("voiceagent.voice.provider_switches", "stage", stage);
        }
        for (VoiceMetrics.Stage stage : VoiceMetrics.Stage.values()) {
            stages.put(stage, Timer.builder("voiceagent.voice.stage").tag("stage", stage.name().toLowerCase(
                            java.util.Locale.ROOT)).description("A stage of an answer: stt_final and end_of_turn from the"
                            + " caller's stop, llm_first_token from the model asked, tts_first_byte from its first words")
                    .publishPercentiles(0.5, 0.99).publishPercentileHistogram().register(registry));
        }
        this.answered = Timer.builder("voiceagent.voice.answer")
                .description("From voice activity hearing the caller stop to the answer's first audio sent")
                .publishPercentiles(0.5, 0.99).register(registry);
        this.interrupted = Timer.builder("voiceagent.voice.barge_in")
                .description("From voice activity hearing the caller start over the agent to the clear sent")
                .publishPercentiles(0.5, 0.99).register(registry);
        this.resumed = Counter.builder("voiceagent.voice.false_interruptions")
                .description("Agents held by the caller's sound that resumed: a backchannel, a cough, no words")
                .register(registry);
    }

    @Override
    public void answered(Duration afterCallerStopped) {
        answered.record(afterCallerStopped);
    }

    @Override
    public void interrupted(Duration afterCallerStarted) {
        interrupted.record(afterCallerStarted);
    }

    @Override
    public void stage(VoiceMetrics.Stage stage, Duration took) {
        stages.get(stage).record(took);
    }

    @Override
    public void resumed() {
        resumed.increment();
    }

    @Override
    public void providerFailed(String stage) {
        registry.counter("voiceagent.voice.provider_errors", "stage", stage).increment();
    }

    @Override
    public void providerSwitched(String stage) {
        registry.counter("voiceagent.voice.provider_switches", "stage", stage).increment();
    }
}
