package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A text-to-speech socket ({@link WarmSocket}) that has one sentence at its provider at a time (RimeStream,
 * LmntStream: the provider keeps one context, or its audio names no sentence): the sentences not done yet wait in
 * order, the first is sent when the one before it is done, and again from its start on a socket opened again (after a
 * {@link TextToSpeech.Listener#restart restart} when some of its audio had come). The characters of a sentence count
 * when it is done, or when it is cancelled after some of its audio came ({@link TextToSpeech.Stream#characters()}). A
 * cancelled sentence that waited is not sent; the one at the provider is stopped there ({@link #stop}) and the next goes
 * at once. The subclass says what its provider is sent ({@link #send}, {@link #stop}, {@link #begin}) and reads what
 * comes back: {@link #atProvider}, {@link #delivered}, {@link #done}, then {@link #next}.
 */
abstract class SentenceAtATime extends WarmSocket implements TextToSpeech.Stream {

    /** The sentences not done yet, in order, with their text; the first is at the provider when {@link #sent}. */
    private final Map<String, String> pending = new LinkedHashMap<>();
    /** Whether the first pending sentence was sent on the socket open now. */
    private boolean sent;
    /** Whether some of the first pending sentence's audio came (since it was last sent). */
    private boolean delivered;
    private long characters;

    SentenceAtATime(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, String provider,
            TextToSpeech.Listener listener) {
        super(connect, vertx, budget, provider, listener);
    }

    /** What a socket opened is sent before the sentence due (nothing by default). */
    protected void begin(WebSocket ws) {
    }

    /** Sends a sentence's text on {@code ws}, as the provider takes it, asking it to speak it all now. */
    protected abstract void send(WebSocket ws, String utterance, String text);

    /** Stops the sentence at the provider (sent on {@code ws}): what of it still arrives is to be dropped. */
    protected abstract void stop(WebSocket ws);

    @Override
    protected synchronized boolean inFlight() {
        return !pending.isEmpty();
    }

    @Override
    protected synchronized void lost() {
        sent = false; // what the provider had went with the socket
    }

    /** A socket opened: {@link #begin}, then the sentence due, again from its start. */
    @Override
    protected final synchronized void opened(WebSocket ws) {
        begin(ws);
        sent = false;
        sendNext(ws);
    }

    /** Sends the first pending sentence on {@code ws} (a restart first when some of its audio had come). */
    private void sendNext(WebSocket ws) {
        if (sent || pending.isEmpty()) {
            return;
        }
        Map.Entry<String, String> next = pending.entrySet().iterator().next();
        if (delivered) {
            delivered = false;
            listener.restart(next.getKey());
        }
        send(ws, next.getKey(), next.getValue());
        sent = true;
    }

    /**
     * Sends the next sentence if none is at the provider; opens a socket when none is open (its {@link #opened} sends
     * it). Called holding the stream's lock.
     */
    protected final void next() {
        if (sent || pending.isEmpty() || closed) {
            return;
        }
        WebSocket ws = socket();
        if (ws == null) {
            connect();
        } else {
            sendNext(ws);
        }
    }

    /** Whether the stream is over (closed, or failed: what still arrives on its socket is not heard). */
    protected final synchronized boolean over() {
        return closed;
    }

    /** The sentence at the provider now (sent, not done), or null. */
    protected final synchronized String atProvider() {
        return sent && !pending.isEmpty() ? pending.keySet().iterator().next() : null;
    }

    /** Some of the audio of the sentence at the provider came. */
    protected final synchronized void delivered() {
        delivered = true;
    }

    /** The sentence at the provider is complete: it is done and its characters count; null when none is there. */
    protected final synchronized String done() {
        String utterance = atProvider();
        if (utterance == null) {
            return null;
        }
        characters += pending.remove(utterance).length();
        sent = false;
        delivered = false;
        return utterance;
    }

    @Override
    public final synchronized void speak(String utterance, String text) {
        if (closed) {
            return;
        }
        pending.put(utterance, text);
        next();
    }

    /**
     * An interrupted sentence: not sent if it waited; at the provider, stopped there ({@link #stop}) and what of it
     * still arrives dropped (it counts when some of its audio had come). The next sentence goes at once.
     */
    @Override
    public final synchronized void cancel(String utterance) {
        boolean first = !pending.isEmpty() && pending.keySet().iterator().next().equals(utterance);
        String text = pending.remove(utterance);
        if (text == null) {
            return;
        }
        if (first) {
            if (delivered) {
                characters += text.length();
            }
            delivered = false;
            WebSocket ws = socket();
            if (sent && ws != null) {
                stop(ws);
            }
            sent = false;
        }
        next();
    }

    @Override
    public final synchronized long characters() {
        return characters;
    }

    @Override
    public final void close() {
        shut(null);
    }
}
