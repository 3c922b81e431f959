package dev.voiceagent.deploy;

import dev.voiceagent.application.voice.runtime.VoiceSessions;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/** The voice runtime's figures as Micrometer meters, scraped at /q/metrics (Prometheus). */
@ApplicationScoped
public class MicrometerVoiceMetrics implements VoiceMetrics {

    private final MeterRegistry registry;
    private final Timer answered;
    private final Timer interrupted;
    private final Counter resumed;

    public MicrometerVoiceMetrics(MeterRegistry registry, VoiceSessions sessions) {
        this.registry = registry;
        Gauge.builder("voiceagent.voice.sessions.active", sessions, VoiceSessions::count)
                .description("Calls talking on this replica").register(registry);
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
