package dev.voiceagent.domain.audio;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts a byte stream into frames of one size (20 ms of μ-law 8 kHz: 160 bytes), whatever sizes it arrives in; what
 * does not fill a frame waits for the next bytes. Carriers expect steady frames, and marks are counted in them.
 */
public final class Framer {

    private final int frameBytes;
    private byte[] pending = new byte[0];

    public Framer(int frameBytes) {
        if (frameBytes <= 0) {
            throw new IllegalArgumentException("frame size must be positive");
        }
        this.frameBytes = frameBytes;
    }

    /** The whole frames these bytes complete, in order. */
    public List<byte[]> push(byte[] bytes) {
        ByteArrayOutputStream joined = new ByteArrayOutputStream(pending.length + bytes.length);
        joined.writeBytes(pending);
        joined.writeBytes(bytes);
        byte[] all = joined.toByteArray();
        List<byte[]> frames = new ArrayList<>(all.length / frameBytes);
        int at = 0;
        for (; at + frameBytes <= all.length; at += frameBytes) {
            frames.add(Arrays.copyOfRange(all, at, at + frameBytes));
        }
        pending = Arrays.copyOfRange(all, at, all.length);
        return frames;
    }

    /** The bytes waiting for a frame, padded to a whole frame with {@code silence}; empty when none wait. */
    public byte[] flush(byte silence) {
        if (pending.length == 0) {
            return new byte[0];
        }
        byte[] frame = Arrays.copyOf(pending, frameBytes);
        Arrays.fill(frame, pending.length, frameBytes, silence);
        pending = new byte[0];
        return frame;
    }

    public int pendingBytes() {
        return pending.length;
    }
}
