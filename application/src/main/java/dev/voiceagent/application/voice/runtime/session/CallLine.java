package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.domain.audio.AmbientLoop;

/**
 * What every session of a call works on, whichever model answers: the call's loop (the one thread it runs on), its
 * media, its recording (null: not recorded), the runtime's metrics and the sound played under the agent's voice (null:
 * none).
 */
public record CallLine(CallLoop loop, MediaChannel media, CallRecorder.Recording recording, VoiceMetrics metrics,
        AmbientLoop ambience) {

    /** A line without ambient sound. */
    public CallLine(CallLoop loop, MediaChannel media, CallRecorder.Recording recording, VoiceMetrics metrics) {
        this(loop, media, recording, metrics, null);
    }
}
