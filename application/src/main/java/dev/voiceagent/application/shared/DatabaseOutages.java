package dev.voiceagent.application.shared;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The database out of reach, as the drivers report it, told apart from a fault of the work itself; and a gate that
 * lets an outage be warned about once a quiet period rather than once per failure (requests, ticks).
 */
public final class DatabaseOutages {

    private DatabaseOutages() {
    }

    /**
     * Whether {@code e} is the database out of reach (a connection refused, closed, or not to be had from the pool):
     * the reactive client's and Hibernate Reactive's wrappings are looked through (by type name: no driver imported).
     */
    public static boolean unavailable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String type = t.getClass().getName();
            String message = String.valueOf(t.getMessage());
            if (t instanceof java.net.ConnectException || type.equals("io.vertx.sqlclient.ClosedConnectionException")
                    || type.equals("io.vertx.core.VertxException") && message.contains("closed")
                    || message.contains("Connection refused") || message.contains("Connection is not active")
                    || message.contains("Failed to create connection") || message.contains("Pending connection")) {
                return true;
            }
        }
        return false;
    }

    /** Opens once per quiet period: the first failure of an outage is warned about, the rest are not. */
    public static final class Gate {
        private final long quietMillis;
        private final AtomicLong openedAt = new AtomicLong(Long.MIN_VALUE / 2);

        public Gate(long quietMillis) {
            this.quietMillis = quietMillis;
        }

        public long quietMillis() {
            return quietMillis;
        }

        /** True for the first call of a quiet period (at {@code nowMillis}), false for the others within it. */
        public boolean open(long nowMillis) {
            long last = openedAt.get();
            return nowMillis - last >= quietMillis && openedAt.compareAndSet(last, nowMillis);
        }
    }
}
