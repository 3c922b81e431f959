package dev.voiceagent.adapters.scheduler;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduler;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The scheduler starts halted (quarkus.scheduler.start-mode=halted) and is let run only here, by
 * the last observer of the start-up event: no tick can run while start-up state is still being
 * built (the instance keys, the beans they feed), so no tick ever waits for it on an event loop.
 */
@ApplicationScoped
public class SchedulerStart {

    void startTicks(@Observes @Priority(Integer.MAX_VALUE) StartupEvent started, Scheduler scheduler,
            @ConfigProperty(name = "quarkus.scheduler.enabled", defaultValue = "true") boolean enabled) {
        if (enabled) { // disabled in the migration Job's pod (deploy/k8s/migrate-job.yaml): nothing to resume
            scheduler.resume();
        }
    }
}
