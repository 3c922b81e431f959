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
    private final Map<Long, String> modes = new ConcurrentHashMap<>();

    /**
     * A call talks here, through {@code mode} (its run's: the carrier, or the browser's transport);
     * {@code handle.handOver} lets it go to another replica where its carrier allows.
     */
    void add(long runId, String mode, Handle handle) {
        live.put(runId, handle);
        modes.put(runId, mode == null ? "" : mode);
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
        modes.remove(runId);
    }

    /** How many calls talk on this replica now. */
    public int count() {
        return live.size();
    }

    /** How many calls talk on this replica now through {@code mode} (a carrier, webrtc, ...). */
    public long count(String mode) {
        return modes.values().stream().filter(mode::equals).count();
    }

    /**
     * This replica drains: every call whose carrier streams it again is let go now, to continue on another replica
     * from its last turn; the others talk on until they end.
     */
    public void handOverAll() {
        live.values().forEach(h -> h.handOver().run());
    }
}
