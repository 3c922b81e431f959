package dev.voiceagent.adapters.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.shared.DatabaseUnavailableException;
import java.net.ConnectException;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

class TickFailuresTest {

    private static final Logger LOG = Logger.getLogger(TickFailuresTest.class);

    @Test
    void aDatabaseOutageIsWarnedAboutOnceAcrossTicksAndEveryOtherFailureEachTime() {
        RuntimeException outage = new RuntimeException("tick", new DatabaseUnavailableException(
                new ConnectException("Connection refused: localhost/127.0.0.1:5432")));
        assertThat(TickFailures.log(LOG, "dispatch tick", outage)).as("the outage's first failure").isTrue();
        assertThat(TickFailures.log(LOG, "webhook delivery tick", outage)).as("another tick, same outage").isFalse();
        assertThat(TickFailures.log(LOG, "dispatch tick", outage)).isFalse();
        IllegalStateException own = new IllegalStateException("a contact without a phone number");
        assertThat(TickFailures.log(LOG, "dispatch tick", own)).as("a failure of the tick's own").isTrue();
        assertThat(TickFailures.log(LOG, "dispatch tick", own)).isTrue();
        // a connection refused by anything but the database (a webhook's endpoint, a provider) is the tick's own
        RuntimeException refused = new RuntimeException(new ConnectException("Connection refused: hooks.example.com"));
        assertThat(TickFailures.log(LOG, "webhook delivery tick", refused)).isTrue();
        assertThat(TickFailures.log(LOG, "webhook delivery tick", refused)).isTrue();
    }
}
