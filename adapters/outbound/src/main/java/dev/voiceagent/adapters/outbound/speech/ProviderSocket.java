package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * A call's WebSocket to a speech provider that outlives its connection. The first connection that fails (a refused
 * upgrade with 408, 429 or a 5xx, its Retry-After honoured; a time-out; a connection refused or reset) is tried again
 * after the {@link RetryBudget}'s wait; a socket that drops without us closing it (the provider or the network closed
 * it) is opened again at once, and again within the budget if the new one fails or drops as well. What the provider
 * must hear first on every socket, and what it must hear again (the audio it had not settled, the sentences whose
 * audio had not come), is the subclass's ({@link #opened}); a stream whose budget is spent is over
 * ({@link #failed}), once. A refusal not worth another try (a bad key, an address the guard refuses, a close the
 * provider means as one: {@link #refusal}) ends it at once. Waits are Vert.x timers; every method holds the stream's
 * own lock.
 */
abstract class ProviderSocket {

    private static final System.Logger LOG = System.getLogger(ProviderSocket.class.getName());

    private final Supplier<Future<WebSocket>> connect;
    private final Vertx vertx;
    private final RetryBudget budget;
    protected final String provider;
    private WebSocket socket;
    private boolean connecting;
    /** Closed by us, or given up: nothing more is sent or reported. */
    protected boolean closed;
    private int failures;
    private long firstFailure = -1;
    private long timer = -1;

    ProviderSocket(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, String provider) {
        this.connect = connect;
        this.vertx = vertx;
        this.budget = budget;
        this.provider = provider;
    }

    /** A socket opened (the first, or one opened again): send what the provider must hear on it before anything. */
    protected abstract void opened(WebSocket ws);

    /** A text message from the current socket. */
    protected abstract void message(String text);

    /**
     * The socket dropped (we did not close it): forget what was the old socket's. True to open another at once; false
     * to wait for the next {@link #connect()} (a voice with nothing in flight).
     */
    protected abstract boolean dropped();

    /** The provider could not be reached again within the budget, or refused for good: nothing more comes. */
    protected abstract void failed(String message);

    /**
     * Whether a socket the provider closed with {@code code} was refused for good (a provider that checks the key or
     * the parameters only after the upgrade says so with its close code): the stream fails at once with the
     * provider's reason, as a refused upgrade does, instead of opening the socket again. None by default.
     */
    protected boolean refusal(Short code) {
        return false;
    }

    /** The socket messages go to now, or null while none is open. */
    protected final synchronized WebSocket socket() {
        return socket;
    }

    /** Opens a socket unless one is open or being opened. */
    protected final synchronized void connect() {
        if (closed || socket != null || connecting) {
            return;
        }
        if (firstFailure >= 0 && since(firstFailure).compareTo(budget.budget()) > 0) {
            forgetFailures(); // the last trouble was long ago: a fresh budget
        }
        attempt();
    }

    private synchronized void attempt() {
        timer = -1;
        if (closed) {
            return;
        }
        connecting = true;
        Future<WebSocket> opening;
        try {
            opening = connect.get();
        } catch (RuntimeException refused) {
            opening = Future.failedFuture(refused);
        }
        opening.onComplete(this::attempted);
    }

    private synchronized void attempted(AsyncResult<WebSocket> result) {
        connecting = false;
        if (result.succeeded()) {
            WebSocket ws = result.result();
            if (closed) {
                ws.close();
                return;
            }
            socket = ws;
            ws.textMessageHandler(text -> {
                if (current(ws)) {
                    message(text);
                }
            });
            ws.closeHandler(v -> lost(ws));
            ws.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "{0} socket: {1}", provider, e.toString()));
            opened(ws);
            return;
        }
        if (closed) {
            return;
        }
        Throwable failure = result.cause();
        Duration retryAfter = null;
        boolean again = !(failure instanceof GuardedHttp.Refused);
        if (failure instanceof GuardedHttp.SocketRefused refused) {
            again = RetryBudget.transientStatus(refused.status);
            retryAfter = RetryBudget.retryAfter(refused.retryAfter, Instant.now());
        }
        String message = provider + ": " + failure.getMessage();
        if (!again || !retry(retryAfter, message)) {
            giveUp(message);
        }
    }

    private synchronized boolean current(WebSocket ws) {
        return ws == socket;
    }

    private synchronized void lost(WebSocket ws) {
        if (ws != socket) {
            return;
        }
        socket = null;
        if (closed) {
            return;
        }
        String message = provider + " closed the stream (" + ws.closeStatusCode() + " " + ws.closeReason() + ")";
        if (refusal(ws.closeStatusCode())) {
            giveUp(message);
            return;
        }
        LOG.log(System.Logger.Level.INFO, "{0}; opening it again", message);
        boolean now = dropped();
        if (firstFailure >= 0 && since(firstFailure).compareTo(budget.budget()) <= 0) {
            // dropped again soon after the last trouble: a failed try of the same episode
            if (!retry(null, message)) {
                giveUp(message);
            }
            return;
        }
        forgetFailures();
        firstFailure = System.nanoTime();
        if (now) {
            attempt();
        }
    }

    /** Counts a failed try and schedules the next within the budget; false when the budget is spent. */
    private boolean retry(Duration retryAfter, String why) {
        failures++;
        if (firstFailure < 0) {
            firstFailure = System.nanoTime();
        }
        Optional<Duration> wait = budget.next(failures, since(firstFailure), retryAfter,
                ThreadLocalRandom.current().nextDouble());
        if (wait.isEmpty()) {
            return false;
        }
        LOG.log(System.Logger.Level.INFO, "{0}; trying again in {1} ms", why, wait.get().toMillis());
        connecting = true;
        timer = vertx.setTimer(Math.max(1, wait.get().toMillis()), t -> attempt());
        return true;
    }

    private void forgetFailures() {
        failures = 0;
        firstFailure = -1;
    }

    /** The stream is over: the socket (if any) closed, {@link #failed} told once. */
    protected final synchronized void giveUp(String message) {
        if (closed) {
            return;
        }
        closed = true;
        cancelTimer();
        if (socket != null) {
            socket.close();
        }
        failed(message);
    }

    /**
     * Closes the open socket as ours, not a drop (a provider with no way to stop what it is saying is stopped so): it
     * is forgotten at once, nothing more of it is heard, and no failure counts; the next {@link #connect()} opens
     * another.
     */
    protected final synchronized void discard() {
        WebSocket ws = socket;
        if (ws != null) {
            socket = null;
            ws.close();
        }
    }

    /** Ends the stream: {@code farewell} (if any) is the last message, the socket closed {@code graceMs} after it. */
    protected final synchronized void shut(String farewell, long graceMs) {
        if (closed) {
            return;
        }
        closed = true;
        cancelTimer();
        WebSocket ws = socket;
        if (ws == null) {
            return;
        }
        if (farewell != null) {
            ws.writeTextMessage(farewell);
        }
        if (graceMs <= 0) {
            ws.close();
        } else {
            vertx.setTimer(graceMs, t -> ws.close());
        }
    }

    private void cancelTimer() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
        connecting = false;
    }

    /** Binary frames are the caller's audio to a listener: written as they come while a socket is open. */
    protected final synchronized boolean writeBinary(byte[] bytes) {
        if (socket == null || socket.writeQueueFull()) {
            return false;
        }
        socket.writeBinaryMessage(Buffer.buffer(bytes));
        return true;
    }

    private static Duration since(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos);
    }
}
