package dev.voiceagent.application.voice.runtime;

import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** This replica's live voice sessions, by run (what the autoscale metric and a draining replica look at). */
@Singleton
public class VoiceSessions {

    /** What can be asked of a live session (each posts onto the session's loop). */
    record Handle(Runnable handOver, Consumer<String> carrierAmd) {
    }

    private final Map<Long, Handle> live = new ConcurrentHashMap<>();

    /** A call talks here; {@code handle.handOver} lets it go to another replica where its carrier allows. */
    void add(long runId, Handle handle) {
        live.put(runId, handle);
    }

    /** The carrier's answering-machine verdict for a call talking here; false when it talks elsewhere (or not). */
    boolean carrierAmd(long runId, String verdict) {
        Handle handle = live.get(runId);
        if (handle == null) {
            return false;
        }
        handle.carrierAmd().accept(verdict);
        return true;
    }

    void remove(long runId) {
        live.remove(runId);
    }

    /** How many calls talk on this replica now. */
    public int count() {
        return live.size();
    }

    /**
     * This replica drains: every call whose carrier streams it again is let go now, to continue on another replica
     * from its last turn; the others talk on until they end.
     */
    public void handOverAll() {
        live.values().forEach(h -> h.handOver().run());
    }
}
