package dev.voiceagent.deploy.support;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class BlockedEventLoopGuardTest {

    private final BlockedEventLoopGuard guard = new BlockedEventLoopGuard();

    @Test
    void aBlockedThreadWarningFailsTheTestThatSawIt() {
        guard.beforeEach(null);
        Logger.getLogger("io.vertx.core.impl.btc.BlockedThreadChecker").log(Level.WARNING,
                "Thread Thread[vert.x-eventloop-thread-0,5,main] has been blocked for 2510 ms, time limit is 2000 ms");
        assertThatThrownBy(() -> guard.afterEach(null)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("has been blocked for 2510 ms");
        // and only that test: the next one starts clean
        guard.beforeEach(null);
        Logger.getLogger("io.vertx.core.impl.btc.BlockedThreadChecker").log(Level.FINE, "not a warning");
        assertThatCode(() -> guard.afterEach(null)).doesNotThrowAnyException();
    }
}
