package dev.voiceagent.deploy.support;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Makes a blocked event loop a test failure: Vert.x's blocked-thread checker warns when an event
 * loop (or a worker) runs longer than allowed; any such warning logged while a test runs fails that
 * test. Registered for every test of this module (service loader, autodetection switched on in deploy/pom.xml).
 */
public class BlockedEventLoopGuard implements BeforeEachCallback, AfterEachCallback {

    /** Vert.x's checker logs under its own package (io.vertx.core.impl.btc in 4.5); records reach this parent. */
    static final String VERTX = "io.vertx";
    private static final String BLOCKED = "has been blocked for";
    private static final List<String> WARNINGS = new ArrayList<>();
    private static final Handler RECORDER = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue() && record.getMessage() != null
                    && record.getMessage().contains(BLOCKED)) {
                synchronized (WARNINGS) {
                    WARNINGS.add(record.getMessage());
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @Override
    public void beforeEach(ExtensionContext context) {
        // attached again before every test: a restarted application may have reset the logging set-up
        Logger checker = Logger.getLogger(VERTX);
        if (!List.of(checker.getHandlers()).contains(RECORDER)) {
            checker.addHandler(RECORDER);
        }
        synchronized (WARNINGS) {
            WARNINGS.clear();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<String> seen;
        synchronized (WARNINGS) {
            seen = List.copyOf(WARNINGS);
            WARNINGS.clear();
        }
        if (!seen.isEmpty()) {
            throw new AssertionError("a Vert.x thread was blocked while this test ran: " + seen);
        }
    }
}
