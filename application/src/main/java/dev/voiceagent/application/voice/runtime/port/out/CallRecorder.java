package dev.voiceagent.application.voice.runtime.port.out;

import dev.voiceagent.domain.audio.AudioFormat;
import io.smallrye.mutiny.Uni;

/**
 * Out-port: a call's recording, written as it happens (memory stays flat with the call's length) and stored as one
 * stereo WAV when it ends: the caller left, the agent right, the agent's audio as the caller heard it (cut where it
 * was interrupted).
 */
public interface CallRecorder {

    interface Recording {

        /** 20 ms of the call: the caller's frame and the agent's frame that played meanwhile, in the call's format. */
        void frame(byte[] caller, byte[] agent);

        /** The recording stored; its object-store key. */
        Uni<String> finish();
    }

    Recording open(long organizationId, long runId, AudioFormat format);
}
