package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;

/**
 * What every session of a call works on, whichever model answers: the call's loop (the one thread it runs on), its
 * media, its recording (null: not recorded) and the runtime's metrics.
 */
public record CallLine(CallLoop loop, MediaChannel media, CallRecorder.Recording recording, VoiceMetrics metrics) {
}
