package dev.voiceagent.application.voice.runtime;

import jakarta.inject.Singleton;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** This replica's live voice sessions, by run (what the autoscale metric and a draining replica look at). */
@Singleton
public class VoiceSessions {

    private final Set<Long> live = ConcurrentHashMap.newKeySet();

    void add(long runId) {
        live.add(runId);
    }

    void remove(long runId) {
        live.remove(runId);
    }

    /** How many calls talk on this replica now. */
    public int count() {
        return live.size();
    }
}
