package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import java.util.function.Supplier;

/**
 * A call's text WebSocket to a voice, opened when the call starts and kept warm (ElevenLabs', Cartesia's). A message
 * written while no socket is open is not kept: the subclass holds every sentence in flight and speaks them all on
 * each socket that opens ({@link #opened}), the first or one opened again. A socket the provider closed while a
 * sentence's audio was still to come is opened again at once (and within the budget, {@link ProviderSocket}), its
 * sentences spoken again (the listener told to {@link TextToSpeech.Listener#restart restart} those whose audio had
 * partly come); one closed while nothing was being spoken is opened again on the next sentence. Every method holds the
 * stream's own lock.
 */
abstract class WarmSocket extends ProviderSocket {

    protected final TextToSpeech.Listener listener;

    WarmSocket(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, String provider,
            TextToSpeech.Listener listener) {
        super(connect, vertx, budget, provider);
        this.listener = listener;
    }

    /** Whether a sentence's audio is still to come (a socket lost now is opened again at once). */
    protected abstract boolean inFlight();

    /** The socket was lost: what the subclass forgets of it before {@link #inFlight()} is asked. */
    protected void lost() {
    }

    @Override
    protected final synchronized boolean dropped() {
        lost();
        return inFlight();
    }

    @Override
    protected void failed(String message) {
        listener.failed(message);
    }

    /** Sends a message on the open socket; with none open, opens one (whose {@link #opened} speaks what is due). */
    protected final synchronized void write(String message) {
        WebSocket ws = socket();
        if (ws == null) {
            connect();
        } else {
            ws.writeTextMessage(message);
        }
    }

    /** Ends the stream: {@code farewell} (if any) is the last message the provider gets. */
    protected final void shut(String farewell) {
        shut(farewell, 0);
    }
}
