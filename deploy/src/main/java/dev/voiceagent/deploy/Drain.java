package dev.voiceagent.deploy;

import dev.voiceagent.adapters.scheduler.DispatchTicks;
import dev.voiceagent.application.campaign.DispatchCampaignsUseCase;
import dev.voiceagent.application.health.CountReplicaCallsUseCase;
import dev.voiceagent.application.voice.runtime.VoiceSessions;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;

/**
 * Graceful drain on SIGTERM: the replica turns not-ready (so no new traffic is routed to it), stops
 * claiming contacts (the other replicas take the campaigns' remaining ones), lets go of the talking calls whose
 * carrier streams them again (Twilio: they continue on another replica from their last turn), and keeps serving
 * the callbacks of the calls it placed and the calls still talking until none is live or voiceagent.drain.max
 * passes; then the shutdown goes on. Kubernetes' terminationGracePeriodSeconds must be longer than the maximum.
 */
@ApplicationScoped
@Readiness
public class Drain implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(Drain.class);

    private final DispatchTicks ticks;
    private final DispatchCampaignsUseCase dispatcher;
    private final CountReplicaCallsUseCase calls;
    private final VoiceSessions sessions;
    private final Duration max;
    private final Duration poll;
    private volatile boolean draining;

    public Drain(DispatchTicks ticks, DispatchCampaignsUseCase dispatcher, CountReplicaCallsUseCase calls,
            VoiceAgentConfig config, VoiceSessions sessions) {
        this.sessions = sessions;
        this.ticks = ticks;
        this.dispatcher = dispatcher;
        this.calls = calls;
        this.max = config.drain().max();
        this.poll = config.drain().poll();
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("drain").status(!draining).withData("draining", draining).build();
    }

    /**
     * Runs when shutdown begins (quarkus.shutdown.delay-enabled), before the HTTP server stops, so the
     * callbacks of the replica's live calls are still served while it waits.
     */
    void onShutdown(@Observes ShutdownDelayInitiatedEvent event) {
        draining = true;
        ticks.stop();
        dispatcher.stopClaiming();
        int talking = sessions.count();
        sessions.handOverAll(); // calls Twilio streams again move now, to continue on another replica
        if (talking > 0) {
            LOG.infof("drain: %d talking calls asked to move to another replica", talking);
        }
        Instant deadline = Instant.now().plus(max);
        long live = -1;
        long logged = -1;
        while (Instant.now().isBefore(deadline)) {
            try {
                live = calls.thisReplicaActive().await().atMost(Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                LOG.warnf("drain: live calls cannot be counted (%s); stopping", e.toString());
                return;
            }
            if (live == 0) {
                LOG.info("drain: no live calls left");
                return;
            }
            if (live != logged) { // once per change: quiet logs
                LOG.infof("drain: waiting for %d live calls", live);
                logged = live;
            }
            try {
                Thread.sleep(poll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        LOG.warnf("drain: %d calls still live after %s; stopping anyway (their leases let another replica settle them)",
                live, max);
    }
}
