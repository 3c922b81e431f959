package dev.voiceagent.application.voice.runtime;

import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** This replica's live voice sessions, by run (what the autoscale metric and a draining replica look at). */
@Singleton
public class VoiceSessions {

    private final Map<Long, Runnable> live = new ConcurrentHashMap<>();

    /** A call talks here; {@code handOver} lets it go to another replica where its carrier allows (on its loop). */
    void add(long runId, Runnable handOver) {
        live.put(runId, handOver);
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
        live.values().forEach(Runnable::run);
    }
}
