package dev.voiceagent.adapters.media.webrtc;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * Opus on libopus, the reference codec, from the system (Debian's and Ubuntu's libopus0: the image installs it, and
 * its security fixes come with the distribution's), called through JNA's direct mapping: both ways at 16 kHz, the
 * call's rate, so the browser's packets (hybrid and full-band ones too) need no resampling, at about a quarter of
 * Concentus' CPU. Where it does not load (no libopus on the machine, a native image without JNA) the calls use
 * {@link OpusCodec.Concentus}, and the reason is logged once. The encoder and decoder live in native memory until
 * {@link #close}; one instance per call, used on its loop only.
 */
final class LibOpus implements OpusCodec {

    private static final System.Logger LOG = System.getLogger(LibOpus.class.getName());
    private static final int RATE = 16_000;
    private static final int FRAME = RATE / 50;
    // opus_defines.h
    private static final int OK = 0;
    private static final int APPLICATION_VOIP = 2048;
    private static final int SET_BITRATE = 4002;
    private static final int SET_COMPLEXITY = 4010;
    private static final int SET_SIGNAL = 4024;
    private static final int SIGNAL_VOICE = 3001;

    /** opus_encoder_ctl is variadic: called through an interface, which JNA calls as such (set-up only). */
    interface Controls extends Library {
        int opus_encoder_ctl(Pointer encoder, int request, Object... value);

        String opus_get_version_string();
    }

    /** The per-packet calls, bound by JNA's direct mapping (no reflection per call). */
    static final class Calls {

        private Calls() {
        }

        static native Pointer opus_encoder_create(int rate, int channels, int application, int[] error);

        static native int opus_encode(Pointer encoder, short[] pcm, int frameSize, byte[] data, int maxBytes);

        static native void opus_encoder_destroy(Pointer encoder);

        static native Pointer opus_decoder_create(int rate, int channels, int[] error);

        static native int opus_decode(Pointer decoder, byte[] data, int length, short[] pcm, int frameSize,
                int decodeFec);

        static native void opus_decoder_destroy(Pointer decoder);
    }

    /** The library's names: the development link where there is one, else the runtime package's soname. */
    private static final String[] LIBRARY_NAMES = {"opus", "libopus.so.0"};
    private static Controls controls;
    /** Why libopus is not used here; null when it loaded. */
    private static final Throwable UNAVAILABLE = load();

    private final Pointer encoder;
    private final Pointer decoder;
    private byte[] packet = new byte[1_500];
    private final byte[] encoded = new byte[1_275];
    private boolean closed;

    private LibOpus(Pointer encoder, Pointer decoder) {
        this.encoder = encoder;
        this.decoder = decoder;
    }

    /** Whether libopus loaded on this platform. */
    static boolean available() {
        return UNAVAILABLE == null;
    }

    /** The reason it did not (null when it did). */
    static Throwable unavailable() {
        return UNAVAILABLE;
    }

    /** A call's encoder and decoder (the codec's settings); an {@link IllegalStateException} when libopus refuses. */
    static LibOpus open() {
        if (UNAVAILABLE != null) {
            throw new IllegalStateException("libopus is not loaded: " + UNAVAILABLE);
        }
        int[] error = new int[1];
        Pointer encoder = Calls.opus_encoder_create(RATE, 1, APPLICATION_VOIP, error);
        if (encoder == null || error[0] != OK) {
            throw new IllegalStateException("opus_encoder_create: error " + error[0]);
        }
        Pointer decoder = Calls.opus_decoder_create(RATE, 1, error);
        if (decoder == null || error[0] != OK) {
            Calls.opus_encoder_destroy(encoder);
            throw new IllegalStateException("opus_decoder_create: error " + error[0]);
        }
        LibOpus codec = new LibOpus(encoder, decoder);
        int set = controls.opus_encoder_ctl(encoder, SET_BITRATE, BITRATE);
        set = set == OK ? controls.opus_encoder_ctl(encoder, SET_COMPLEXITY, COMPLEXITY) : set;
        set = set == OK ? controls.opus_encoder_ctl(encoder, SET_SIGNAL, SIGNAL_VOICE) : set;
        if (set != OK) {
            codec.close();
            throw new IllegalStateException("opus_encoder_ctl: error " + set);
        }
        return codec;
    }

    @Override
    public int decodeRate() {
        return RATE;
    }

    @Override
    public int encode(short[] pcm, byte[] out, int offset, int max) {
        if (pcm.length < FRAME) { // libopus reads a whole frame from what JNA copied
            throw new IllegalArgumentException("a frame of " + pcm.length + " samples, not " + FRAME);
        }
        int size = Calls.opus_encode(encoder, pcm, FRAME, encoded, Math.min(max, encoded.length));
        if (size < 0) {
            throw new IllegalArgumentException("opus_encode: error " + size);
        }
        System.arraycopy(encoded, 0, out, offset, size);
        return size;
    }

    @Override
    public int decode(byte[] data, int offset, int length, short[] out) {
        if (length > packet.length) {
            packet = new byte[length];
        }
        System.arraycopy(data, offset, packet, 0, length); // direct mapping passes whole arrays
        int samples = Calls.opus_decode(decoder, packet, length, out, out.length, 0);
        if (samples < 0) {
            throw new IllegalArgumentException("opus_decode: error " + samples);
        }
        return samples;
    }

    @Override
    public int conceal(short[] out) {
        if (out.length < FRAME) { // libopus writes a whole frame into what JNA copies back
            throw new IllegalArgumentException("room for " + out.length + " samples, not " + FRAME);
        }
        int samples = Calls.opus_decode(decoder, null, 0, out, FRAME, 0);
        if (samples < 0) {
            throw new IllegalArgumentException("opus_decode (concealment): error " + samples);
        }
        return samples;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Calls.opus_encoder_destroy(encoder);
            Calls.opus_decoder_destroy(decoder);
        }
    }

    private static Throwable load() {
        Throwable why = null;
        for (String name : LIBRARY_NAMES) {
            try {
                Native.register(Calls.class, NativeLibrary.getInstance(name));
                controls = Native.load(name, Controls.class);
                LOG.log(System.Logger.Level.DEBUG, "WebRTC calls' Opus: {0}", controls.opus_get_version_string());
                return null;
            } catch (RuntimeException | LinkageError e) {
                why = e;
            }
        }
        LOG.log(System.Logger.Level.WARNING, "libopus did not load (install libopus0): WebRTC calls use Concentus,"
                + " about four times the CPU a call: {0}", why.toString());
        return why;
    }
}
