package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import io.vertx.core.Future;
import io.vertx.core.http.WebSocket;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Supplier;

/**
 * A call's text WebSocket to a voice, opened when the call starts and kept warm (ElevenLabs', Cartesia's): messages
 * written while it opens wait and go once it is open; a socket the provider closed while nothing was being spoken is
 * opened again on the next message; one closed while speech was in flight fails the stream (the session says so).
 * Subclasses read its messages and say whether speech is in flight; every method holds the stream's own lock.
 */
abstract class WarmSocket {

    private static final System.Logger LOG = System.getLogger(WarmSocket.class.getName());

    private final Supplier<Future<WebSocket>> connect;
    private final String provider;
    protected final TextToSpeech.Listener listener;
    private final Deque<String> unsent = new ArrayDeque<>();
    private WebSocket socket;
    private boolean connecting;
    protected boolean closed;

    WarmSocket(Supplier<Future<WebSocket>> connect, String provider, TextToSpeech.Listener listener) {
        this.connect = connect;
        this.provider = provider;
        this.listener = listener;
    }

    /** A message from the provider. */
    protected abstract void message(String text);

    /** Whether a sentence's audio is still to come (a socket lost now cuts speech short). */
    protected abstract boolean inFlight();

    /** The socket was lost: what the subclass forgets before {@link #inFlight()} is asked. */
    protected void lost() {
    }

    protected final synchronized void connect() {
        if (connecting || closed) {
            return;
        }
        connecting = true;
        connect.get().onComplete(result -> connected(result.succeeded() ? result.result() : null,
                result.failed() ? result.cause().getMessage() : null));
    }

    private synchronized void connected(WebSocket ws, String failure) {
        connecting = false;
        if (ws == null) {
            closed = true;
            listener.failed(provider + ": " + failure);
            return;
        }
        if (closed) {
            ws.close();
            return;
        }
        socket = ws;
        ws.textMessageHandler(this::message);
        ws.closeHandler(v -> dropped(ws));
        ws.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "{0} stream: {1}", provider, e.toString()));
        while (!unsent.isEmpty()) {
            ws.writeTextMessage(unsent.pollFirst());
        }
    }

    private synchronized void dropped(WebSocket ws) {
        if (ws != socket) {
            return;
        }
        socket = null;
        if (closed) {
            return;
        }
        lost();
        if (inFlight()) {
            closed = true; // speech was cut mid-sentence: the session says so
            listener.failed(provider + " closed the stream (" + ws.closeStatusCode() + " " + ws.closeReason() + ")");
        }
        // idle: opened again on the next message
    }

    /** Sends a message now, or once the socket is (re)opened. */
    protected final synchronized void write(String message) {
        if (socket == null) {
            unsent.addLast(message);
            connect();
        } else {
            socket.writeTextMessage(message);
        }
    }

    /** Ends the stream: {@code farewell} (if any) is the last message the provider gets. */
    protected final synchronized void shut(String farewell) {
        if (closed) {
            return;
        }
        closed = true;
        if (socket != null) {
            if (farewell != null) {
                socket.writeTextMessage(farewell);
            }
            socket.close();
        }
    }
}
