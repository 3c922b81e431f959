package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import java.util.Arrays;

/**
 * One sentence's raw 16-bit little-endian PCM, at the call's own rate, as a provider cuts it (anywhere, a sample's two
 * bytes may fall in two chunks: Rime's stream is cut so), handed on in whole samples and in the call's encoding (μ-law
 * for a phone, as it is for a browser). No resampling: the provider was asked for the call's rate. One per sentence.
 */
final class PcmChunks {

    private final boolean mulaw;
    /** A byte of a sample split between chunks, or -1. */
    private int carry = -1;

    private PcmChunks(boolean mulaw) {
        this.mulaw = mulaw;
    }

    /** PCM at {@code call}'s rate to {@code call}'s encoding. */
    static PcmChunks to(AudioFormat call) {
        return new PcmChunks(call.encoding() == AudioFormat.Encoding.MULAW);
    }

    /** The chunk's whole samples (with the byte the last one left over), in the call's encoding; maybe empty. */
    byte[] next(byte[] chunk) {
        byte[] bytes = chunk;
        if (carry >= 0) {
            bytes = new byte[chunk.length + 1];
            bytes[0] = (byte) carry;
            System.arraycopy(chunk, 0, bytes, 1, chunk.length);
            carry = -1;
        }
        if (bytes.length % 2 == 1) {
            carry = bytes[bytes.length - 1] & 0xFF;
            bytes = Arrays.copyOf(bytes, bytes.length - 1);
        }
        return mulaw ? G711.encode(Pcm16.samples(bytes)) : bytes;
    }
}
