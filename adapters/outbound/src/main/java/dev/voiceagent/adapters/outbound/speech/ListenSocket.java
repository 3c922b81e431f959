package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * A call's speech-to-text socket that outlives its connection ({@link ProviderSocket}), with the bookkeeping
 * DeepgramListen and AssemblyAiListen keep each for themselves ({@link UnsettledAudio}), for the recognizers that came after them (Cartesia,
 * Sarvam, Smallest, Azure): the caller's audio is sent in messages of {@link #CHUNK_MS} (the call's 20 ms frames
 * gathered), in the format the provider hears ({@link #wire}: the call's own when the provider takes it, else 16 kHz
 * 16-bit PCM, a phone's μ-law decoded and resampled); what no final transcript has settled yet is kept (at most
 * {@link #UNSETTLED_MS}), and every socket, the first and one opened again after a drop, is sent first what the
 * provider must hear before audio ({@link #begin}), then that audio, then the finalize that had no answer yet in its
 * place: the audio said before the socket opened, during a gap, and the line said across a drop reach the new socket,
 * and what a final settled is not sent again. The subclass says what settles what ({@link #settle}, {@link #answered})
 * and how its provider's messages read. Usage counts the caller's audio once. Every method holds the stream's lock.
 */
abstract class ListenSocket extends ProviderSocket implements SpeechToText.Stream {

    /** The most caller audio kept for a socket opened again (the audio no final settled). */
    static final int UNSETTLED_MS = 15_000;
    /** The audio of one message: five of the call's 20 ms frames. */
    static final int CHUNK_MS = 100;
    /** The rate a provider that does not take the call's μ-law hears PCM at. */
    static final int PCM_RATE = 16_000;

    protected final SpeechToText.Listener listener;
    /** The audio the provider hears. */
    protected final AudioFormat wire;
    private final AudioFormat call;
    /** The call's audio (a phone's μ-law decoded) to 16 kHz PCM, or null: the provider takes it as it is. */
    private final Resampler resampler;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    /** The audio not settled yet, as sent (positions: wire bytes since the call began). */
    private final UnsettledAudio unsettled = new UnsettledAudio();
    private long callBytes;

    /**
     * @param takesCall whether the provider takes the call's own format (μ-law 8 kHz from a phone, 16-bit PCM from a
     *        browser); if not, the call's audio is sent as 16 kHz 16-bit PCM (a browser's 16 kHz PCM as it is)
     */
    ListenSocket(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, String provider,
            AudioFormat format, boolean takesCall, SpeechToText.Listener listener) {
        super(connect, vertx, budget, provider);
        this.call = format;
        this.wire = wire(format, takesCall);
        this.resampler = wire.equals(format) ? null : new Resampler(format.sampleRate(), wire.sampleRate());
        this.listener = listener;
    }

    /** What the provider hears of a call in {@code format}. */
    static AudioFormat wire(AudioFormat format, boolean takesCall) {
        return takesCall ? format : new AudioFormat(AudioFormat.Encoding.PCM16LE, PCM_RATE);
    }

    /** What the provider must hear first on a socket, before any audio (nothing by default). */
    protected void begin(WebSocket ws) {
    }

    /** One message of the caller's audio, as the provider takes it. */
    protected abstract void sendAudio(WebSocket ws, byte[] chunk);

    /** Asks the provider to settle what it heard now. */
    protected abstract void sendFinalize(WebSocket ws);

    /** The socket was lost: what the subclass forgets of it (it is opened again at once). */
    protected void lost() {
    }

    @Override
    protected final synchronized void opened(WebSocket ws) {
        unsettled.opened(); // what begin reads of the places (sentSoFar) is this socket's already
        begin(ws);
        unsettled.replay(chunk -> sendAudio(ws, chunk), () -> sendFinalize(ws));
    }

    @Override
    protected final synchronized boolean dropped() {
        lost();
        return true;
    }

    @Override
    protected void failed(String message) {
        listener.failed(message);
    }

    /** Wire bytes of {@code seconds} on the current socket's audio, as a place on the call's (for {@link #settle}). */
    protected final synchronized long onSocket(double seconds) {
        return unsettled.onSocket(Math.round(seconds * 1_000) * wire.bytes(1));
    }

    /** How far the caller's audio was sent: a place for {@link #settle}. */
    protected final synchronized long sentSoFar() {
        return unsettled.sentUpTo();
    }

    /**
     * A final came: the audio up to {@code at} (a place from {@link #onSocket} or {@link #sentSoFar}; all sent when -1)
     * is settled.
     */
    protected final synchronized void settle(long at) {
        unsettled.settle(at);
    }

    /** Whether a finalize was asked for that has no answer yet. */
    protected final synchronized boolean finalizing() {
        return unsettled.finalizing();
    }

    /** The provider answered the finalize: everything said before it is settled. */
    protected final synchronized void answered() {
        unsettled.settleFinalized();
    }

    @Override
    public final synchronized void audio(byte[] frame) {
        if (closed) {
            return;
        }
        callBytes += frame.length;
        pending.writeBytes(resampler == null ? frame : Pcm16.bytes(resampler.process(
                call.encoding() == AudioFormat.Encoding.MULAW ? G711.decode(frame) : Pcm16.samples(frame))));
        int size = wire.bytes(CHUNK_MS);
        while (pending.size() >= size) {
            send(size);
        }
    }

    /** The first {@code size} bytes pending become one message: kept until settled, and sent while a socket is open. */
    private void send(int size) {
        byte[] all = pending.toByteArray();
        byte[] chunk = all.length == size ? all : Arrays.copyOf(all, size);
        pending.reset();
        pending.write(all, size, all.length - size);
        unsettled.keep(chunk, wire.bytes(UNSETTLED_MS)); // the oldest forgotten: too long unsettled
        unsettled.forgetStaleFinalize(); // nothing heard before it is kept: there is no line left for it to end
        WebSocket ws = socket();
        if (ws != null) {
            sendAudio(ws, chunk);
            unsettled.sent(chunk.length);
        }
    }

    @Override
    public final synchronized void finalizeNow() {
        if (closed) {
            return;
        }
        if (pending.size() > 0) {
            send(pending.size()); // the last of the caller's audio goes before the finalize
        }
        unsettled.finalizeAsked();
        WebSocket ws = socket();
        if (ws != null) {
            sendFinalize(ws);
        }
    }

    @Override
    public final synchronized double seconds() {
        return callBytes / (double) call.bytes(1_000);
    }

    /** What the provider hears last on an open socket before the stream ends, besides a text farewell (nothing). */
    protected void last(WebSocket ws) {
    }

    /**
     * Ends the stream: the audio pending first, then {@link #last} and {@code farewell} (if any), the socket closed
     * after a grace.
     */
    protected final synchronized void end(String farewell, long graceMs) {
        if (closed) {
            return;
        }
        WebSocket ws = socket();
        if (ws != null) {
            if (pending.size() > 0) {
                send(pending.size());
            }
            last(ws);
        }
        shut(farewell, graceMs);
    }
}
