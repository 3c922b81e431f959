package dev.voiceagent.adapters.media.webrtc;

import io.github.jaredmdobson.concentus.OpusApplication;
import io.github.jaredmdobson.concentus.OpusDecoder;
import io.github.jaredmdobson.concentus.OpusEncoder;
import io.github.jaredmdobson.concentus.OpusException;
import io.github.jaredmdobson.concentus.OpusSignal;

/**
 * A WebRTC call's Opus: the agent's 20 ms frames of 16 kHz speech encoded (24 kbit/s, complexity 5, a voice), the
 * browser's packets decoded. libopus (the reference codec, the system's: {@link LibOpus}) where it loads, else
 * Concentus, its pure-Java port, which decodes browsers' hybrid packets to silence at 16 kHz and so decodes at 48 kHz
 * (the peer then resamples) and costs about four times libopus' CPU. One per call, on the call's loop; {@link #close} frees it.
 */
interface OpusCodec extends AutoCloseable {

    int BITRATE = 24_000;
    int COMPLEXITY = 5;

    /** The rate {@link #decode} writes at: 16 kHz, the call's, or 48 kHz (Concentus). */
    int decodeRate();

    /** One 20 ms frame of 16 kHz PCM encoded into {@code out} from {@code offset}: the packet's length. */
    int encode(short[] pcm, byte[] out, int offset, int max);

    /**
     * One packet decoded into {@code out}: the samples written at {@link #decodeRate}. A packet the codec refuses is an
     * {@link IllegalArgumentException}.
     */
    int decode(byte[] packet, int offset, int length, short[] out);

    /** 20 ms in place of a lost packet (the decoder's concealment): the samples written. */
    int conceal(short[] out);

    @Override
    void close();

    /** libopus when it loaded here, else Concentus. */
    static OpusCodec open() {
        return LibOpus.available() ? LibOpus.open() : new Concentus();
    }

    /** Concentus 1.0.2, libopus' pure-Java port. */
    final class Concentus implements OpusCodec {

        private static final int DECODE_RATE = 48_000;
        private final OpusEncoder encoder;
        private final OpusDecoder decoder;

        Concentus() {
            try {
                encoder = new OpusEncoder(16_000, 1, OpusApplication.OPUS_APPLICATION_VOIP);
                encoder.setBitrate(BITRATE);
                encoder.setComplexity(COMPLEXITY);
                encoder.setSignalType(OpusSignal.OPUS_SIGNAL_VOICE);
                decoder = new OpusDecoder(DECODE_RATE, 1);
            } catch (OpusException e) {
                throw new IllegalStateException("Opus: " + e.getMessage(), e);
            }
        }

        @Override
        public int decodeRate() {
            return DECODE_RATE;
        }

        @Override
        public int encode(short[] pcm, byte[] out, int offset, int max) {
            try {
                return encoder.encode(pcm, 0, pcm.length, out, offset, max);
            } catch (OpusException e) {
                throw new IllegalArgumentException("Opus: " + e.getMessage(), e);
            }
        }

        @Override
        public int decode(byte[] packet, int offset, int length, short[] out) {
            try {
                return decoder.decode(packet, offset, length, out, 0, out.length, false);
            } catch (OpusException e) {
                throw new IllegalArgumentException("Opus: " + e.getMessage(), e);
            }
        }

        @Override
        public int conceal(short[] out) {
            try {
                return decoder.decode(null, 0, 0, out, 0, DECODE_RATE / 50, false);
            } catch (OpusException e) {
                throw new IllegalArgumentException("Opus: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            // nothing native
        }
    }
}
