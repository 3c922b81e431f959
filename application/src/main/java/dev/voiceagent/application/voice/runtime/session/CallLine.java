package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.trace.RunTrace;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.domain.audio.AmbientLoop;

/**
 * What every session of a call works on, whichever model answers: the call's loop (the one thread it runs on), its
 * media, its recording (null: not recorded), the runtime's metrics, the sound played under the agent's voice (null:
 * none) and the run's trace.
 */
public record CallLine(CallLoop loop, MediaChannel media, CallRecorder.Recording recording, VoiceMetrics metrics,
        AmbientLoop ambience, RunTrace trace) {

    public CallLine {
        trace = trace == null ? RunTrace.NONE : trace;
    }

    /** A line without ambient sound, not traced. */
    public CallLine(CallLoop loop, MediaChannel media, CallRecorder.Recording recording, VoiceMetrics metrics) {
        this(loop, media, recording, metrics, null, null);
    }

    /** A line not traced. */
    public CallLine(CallLoop loop, MediaChannel media, CallRecorder.Recording recording, VoiceMetrics metrics,
            AmbientLoop ambience) {
        this(loop, media, recording, metrics, ambience, null);
    }
}
