package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * A call's stereo recording as it happens: each 20 ms frame of the caller's audio is written beside the agent's frame
 * that played meanwhile (the agent's frames wait from when they go to the carrier until the caller's next frames), so
 * the agent's side is what the caller heard, cut where the caller barged in. On the call's loop only.
 */
final class CallRecording {

    private final CallRecorder.Recording recording;
    private final byte[] silentFrame;
    /** The agent's frames sent to the carrier and not yet recorded, one per 20 ms of the call. */
    private final Deque<byte[]> playing = new ArrayDeque<>();

    /** @param recording where the frames go; null: the call is not recorded */
    CallRecording(CallRecorder.Recording recording, int frameBytes, byte silence) {
        this.recording = recording;
        this.silentFrame = new byte[frameBytes];
        Arrays.fill(silentFrame, silence);
    }

    /** A frame of the agent's audio went to the carrier. */
    void agent(byte[] frame) {
        if (recording != null) {
            playing.addLast(frame);
        }
    }

    /** A frame of the caller's audio: recorded beside the agent's frame that played meanwhile (or silence). */
    void caller(byte[] frame) {
        if (recording != null) {
            byte[] agent = playing.pollFirst();
            recording.frame(frame, agent == null ? silentFrame : agent);
        }
    }

    /** The carrier dropped what it had not played (a barge-in): it is not in the recording. */
    void cleared() {
        playing.clear();
    }

    /**
     * The call ended: the agent's frames the carrier played after the caller's last frame reached us (a goodbye's last
     * marks came back) are recorded against silence.
     */
    void flush() {
        if (recording != null) {
            while (!playing.isEmpty()) {
                recording.frame(silentFrame, playing.pollFirst());
            }
        }
    }
}
