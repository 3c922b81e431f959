package dev.voiceagent.adapters.scheduler;

import dev.voiceagent.application.usage.UsageUseCases.MeterUsageUseCase;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Metering on every replica: each tick meters finished runs in batches until none is left (at most
 * {@link #BATCHES_PER_TICK} batches, so a backlog drains over several ticks); replicas skip each other's rows.
 */
@ApplicationScoped
public class MeteringTicks {

    static final int BATCHES_PER_TICK = 10;
    private static final Logger LOG = Logger.getLogger(MeteringTicks.class);

    private final MeterUsageUseCase metering;

    public MeteringTicks(MeterUsageUseCase metering) {
        this.metering = metering;
    }

    @Scheduled(identity = "usage-metering", every = "${voiceagent.usage.meter-every:5s}",
            delayed = "${voiceagent.usage.meter-delay:10s}", concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> meter() {
        return Multi.createBy().repeating().uni(metering::meterNext).whilst(metered -> metered > 0)
                .select().first(BATCHES_PER_TICK).collect().with(Collectors.summingInt(Integer::intValue))
                .invoke(total -> {
                    if (total > 0) {
                        LOG.debugf("metered %d finished runs", total);
                    }
                })
                .onFailure().invoke(f -> TickFailures.log(LOG, "usage metering tick", f))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
