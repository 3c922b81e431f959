package dev.voiceagent.deploy;

import dev.voiceagent.application.dispatch.DispatchMetrics;
import dev.voiceagent.domain.telephony.CallStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** The engine's figures as Micrometer meters, scraped at /q/metrics (Prometheus). */
@ApplicationScoped
@Startup
public class MicrometerDispatchMetrics implements DispatchMetrics {

    private final MeterRegistry registry;
    private final Counter dials;
    private final Counter dialFailures;
    private final Timer ticks;
    private final Counter trips;
    private final Counter rows;
    private final AtomicLong active = new AtomicLong();

    public MicrometerDispatchMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.dials = Counter.builder("voiceagent.dials.started").description("Calls placed by the campaign dispatcher")
                .register(registry);
        this.dialFailures = Counter.builder("voiceagent.dials.failed")
                .description("Dials the provider refused (call initiation failures)").register(registry);
        this.ticks = Timer.builder("voiceagent.dispatch.tick").description("Duration of a dispatch tick")
                .publishPercentiles(0.5, 0.99).register(registry);
        this.trips = Counter.builder("voiceagent.breaker.trips").description("Circuit-breaker trips").register(registry);
        this.rows = Counter.builder("voiceagent.import.rows").description("Contact rows imported").register(registry);
        for (CallStatus status : CallStatus.values()) { // every outcome's series present from the start, at 0
            registry.counter("voiceagent.calls.outcomes", "status", status.wireName());
        }
        // held strongly (registry.gauge keeps a weak reference), registered at start rather than at the first dial
        Gauge.builder("voiceagent.calls.active", active, AtomicLong::get).description("Calls the dispatcher has live")
                .strongReference(true).register(registry);
    }

    @Override
    public void dialsStarted(int count) {
        dials.increment(count);
    }

    @Override
    public void dialFailed() {
        dialFailures.increment();
    }

    @Override
    public void outcome(CallStatus status) {
        registry.counter("voiceagent.calls.outcomes", "status", status.wireName()).increment();
    }

    @Override
    public void tick(Duration took) {
        ticks.record(took);
    }

    @Override
    public void breakerTripped() {
        trips.increment();
    }

    @Override
    public void rowsImported(int count) {
        rows.increment(count);
    }

    @Override
    public void activeCalls(long thisReplica) {
        active.set(thisReplica);
    }
}
