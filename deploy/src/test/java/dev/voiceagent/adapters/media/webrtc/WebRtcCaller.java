package dev.voiceagent.adapters.media.webrtc;

import dev.voiceagent.deploy.support.ScriptedCaller;
import dev.voiceagent.deploy.support.SpokenScript;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A WebRTC caller for the voice benchmark, as a browser is one but in this process: a {@link WebRtcDialer} (the
 * dashboard's signaling, ICE, DTLS-SRTP, Opus) saying the caller's script: real speech (FreeTTS at 16 kHz) and silence
 * as one 20 ms packet every 20 ms, as a browser sends them (encoded once for all callers, so the callers cost the
 * shared box little), and when each agent packet came. A barge-in shows as the call's {@code rtf-interruption} event,
 * sent as the service drops the agent's queued audio.
 */
public final class WebRtcCaller implements ScriptedCaller, WebRtcDialer.Audio {

    /** Each line's and silence's Opus packets, encoded once for every caller (the callers share the box measured). */
    private static final Map<String, List<byte[]>> ENCODED = new ConcurrentHashMap<>();
    private static final byte[] SILENCE_PACKET = WebRtcDialer.opus(List.of(new byte[SpokenScript.FRAME_BYTES]))
            .getFirst();
    private final SpokenScript script = new SpokenScript(SILENCE_PACKET);
    private final List<Long> agentFrames = new ArrayList<>();
    /** The call's transport: its signaling messages, and when its offer, answer, check and DTLS were done. */
    public final WebRtcDialer dialer;

    public WebRtcCaller(Vertx vertx) {
        this.dialer = new WebRtcDialer(vertx, this);
    }

    /** Opens the signaling socket at {@code url}, sends the offer and connects once answered. */
    public WebRtcCaller connect(String url) throws Exception {
        dialer.connect(url);
        return this;
    }

    @Override
    public synchronized byte[] next(long now) {
        return script.next(now);
    }

    @Override
    public synchronized void heard(long now) {
        agentFrames.add(now);
    }

    @Override
    public synchronized WebRtcCaller says(String line) {
        List<byte[]> frames = SpokenScript.frames(line);
        script.say(frames, ENCODED.computeIfAbsent(line, l -> WebRtcDialer.opus(frames)));
        return this;
    }

    @Override
    public synchronized WebRtcCaller pauses(int ms) {
        script.pause(ms);
        return this;
    }

    @Override
    public synchronized List<long[]> speech() {
        return List.copyOf(script.speech());
    }

    /**
     * When the agent's audio stopped because the caller spoke over it: WebRTC has no clear message (the dashboard's
     * rtf-interruption comes once the caller's words confirmed the barge-in, after the agent was already held), and the
     * peer sends nothing in silence, so for each line begun while the agent's packets were arriving (one within 60 ms
     * of its start), the moment the next packet after that run of them (gaps under 100 ms) would have come.
     */
    @Override
    public synchronized List<Long> clears() {
        List<Long> stops = new ArrayList<>();
        for (long[] line : script.speech()) {
            long start = line[0];
            long last = -1;
            for (long at : agentFrames) {
                if (last < 0) {
                    if (at > start + 60) {
                        break;
                    }
                    if (at >= start - 60) {
                        last = at;
                    }
                } else if (at - last < 100) {
                    last = at;
                } else {
                    break;
                }
            }
            if (last >= 0) {
                stops.add(last + 20);
            }
        }
        return stops;
    }

    @Override
    public synchronized long firstAgentFrameAfter(long from) {
        return agentFrames.stream().mapToLong(Long::longValue).filter(t -> t >= from).findFirst().orElse(-1L);
    }

    @Override
    public void send(JsonObject message) {
        dialer.send(message);
    }

    @Override
    public CompletableFuture<String> closed() {
        return dialer.closed();
    }

    @Override
    public void close() {
        dialer.close();
    }
}
