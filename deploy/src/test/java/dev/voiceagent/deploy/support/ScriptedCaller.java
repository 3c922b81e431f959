package dev.voiceagent.deploy.support;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A browser's caller of the voice benchmark, whatever carries its audio (the plain WebSocket route, WebRTC): a script
 * of speech and silence said in real time, and what it received.
 */
public interface ScriptedCaller extends AutoCloseable {

    ScriptedCaller says(String line);

    ScriptedCaller pauses(int ms);

    /** Each line's voiced part as sent: its first voiced frame's time and its last one's end (epoch ms). */
    List<long[]> speech();

    /** When the service stopped the agent's audio for a barge-in (epoch ms), in order. */
    List<Long> clears();

    /** The first agent frame at or after {@code from} (epoch ms), -1 if none. */
    long firstAgentFrameAfter(long from);

    void send(JsonObject message);

    CompletableFuture<String> closed();

    @Override
    void close();
}
