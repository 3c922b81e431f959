package dev.voiceagent.adapters.webrtc;

import dev.onvoid.webrtc.CreateSessionDescriptionObserver;
import dev.onvoid.webrtc.PeerConnectionFactory;
import dev.onvoid.webrtc.PeerConnectionObserver;
import dev.onvoid.webrtc.RTCAnswerOptions;
import dev.onvoid.webrtc.RTCConfiguration;
import dev.onvoid.webrtc.RTCIceCandidate;
import dev.onvoid.webrtc.RTCPeerConnection;
import dev.onvoid.webrtc.RTCPeerConnectionState;
import dev.onvoid.webrtc.RTCRtpTransceiver;
import dev.onvoid.webrtc.RTCSdpType;
import dev.onvoid.webrtc.RTCSessionDescription;
import dev.onvoid.webrtc.SetSessionDescriptionObserver;
import dev.onvoid.webrtc.media.MediaStreamTrack;
import dev.onvoid.webrtc.media.audio.AudioTrack;
import dev.onvoid.webrtc.media.audio.AudioTrackSink;
import dev.onvoid.webrtc.media.audio.CustomAudioSource;
import dev.onvoid.webrtc.media.audio.HeadlessAudioDeviceModule;
import dev.voiceagent.application.voice.runtime.MediaChannel;
import dev.voiceagent.domain.audio.AudioFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One browser call's peer: libwebrtc (webrtc-java) does ICE, DTLS-SRTP and Opus; this class bridges its audio to the
 * call's session at 16 kHz PCM. Each call has its own factory and headless audio module: the module's playout pulls
 * the browser's audio to the track's sink (48 kHz, 10 ms), which is cut to 16 kHz 20 ms frames for the session; the
 * agent's audio is pushed to a custom source, 10 ms every 10 ms from one thread of this call, with the marks queued
 * between its chunks (a mark is reached when the audio before it was sent). The module's own capture is stopped once
 * the peer connects and before the first push: webrtc-java 0.14 feeds a sender from both, and libwebrtc aborts the
 * process on that race. Every callback of libwebrtc's threads goes to {@link Events}, which hops to the call's loop.
 */
final class WebRtcCall implements MediaChannel {

    static final AudioFormat FORMAT = AudioFormat.PCM_16K;
    private static final int RATE = 48_000;
    private static final int CHUNK_SAMPLES = RATE / 100;
    private static final byte[] SILENCE = new byte[CHUNK_SAMPLES * 2];

    /** What the peer tells the signaling socket; called on libwebrtc's threads. */
    interface Events {
        void connected();

        void ended(String why);

        void audio(byte[] frame);

        void marked(String name);

        void feedback(Map<String, Object> event);

        void closing(String reason);

        /** A local candidate, trickled to the browser after the answer. */
        void candidate(String sdpMid, int sdpMLineIndex, String candidate);
    }

    private final Events events;
    private final HeadlessAudioDeviceModule audio;
    private final PeerConnectionFactory factory;
    private final RTCPeerConnection peer;
    private final CustomAudioSource voice;
    private final AudioTrack voiceTrack;
    private final ScheduledExecutorService pusher;
    /** byte[] chunks of 10 ms at 48 kHz, and String marks between them. */
    private final ConcurrentLinkedDeque<Object> out = new ConcurrentLinkedDeque<>();
    private final short[] heard = new short[FORMAT.sampleRate() / 50];
    private int heardFill;
    private volatile boolean sending;
    private volatile boolean closed;

    /** Creates the peer (about 150 ms of native start-up: off the event loop). */
    WebRtcCall(Events events) {
        this.events = events;
        this.audio = new HeadlessAudioDeviceModule();
        audio.initPlayout();
        audio.startPlayout();
        this.factory = new PeerConnectionFactory(audio);
        this.peer = factory.createPeerConnection(new RTCConfiguration(), new PeerConnectionObserver() {
            @Override
            public void onIceCandidate(RTCIceCandidate candidate) {
                events.candidate(candidate.sdpMid, candidate.sdpMLineIndex, candidate.sdp);
            }

            @Override
            public void onConnectionChange(RTCPeerConnectionState state) {
                switch (state) {
                    case CONNECTED -> startSending();
                    case FAILED -> events.ended("webrtc_connection_failed");
                    case CLOSED -> events.ended("webrtc_connection_closed");
                    default -> {
                        // new, connecting, disconnected (ICE may recover)
                    }
                }
            }

            @Override
            public void onTrack(RTCRtpTransceiver transceiver) {
                MediaStreamTrack track = transceiver.getReceiver().getTrack();
                if (track instanceof AudioTrack remote) {
                    remote.addSink(sink());
                }
            }
        });
        this.voice = new CustomAudioSource();
        this.voiceTrack = factory.createAudioTrack("agent", voice);
        peer.addTrack(voiceTrack, List.of("agent"));
        this.pusher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "webrtc-push");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The browser's offer: the answer at once, with the candidates gathered so far; the rest trickle after it
     * ({@link Events#candidate}).
     */
    CompletableFuture<String> answer(String sdp) {
        CompletableFuture<String> answered = new CompletableFuture<>();
        peer.setRemoteDescription(new RTCSessionDescription(RTCSdpType.OFFER, sdp), observer(answered, () ->
                peer.createAnswer(new RTCAnswerOptions(), new CreateSessionDescriptionObserver() {
                    @Override
                    public void onSuccess(RTCSessionDescription answer) {
                        peer.setLocalDescription(answer, observer(answered,
                                () -> answered.complete(peer.getLocalDescription().sdp)));
                    }

                    @Override
                    public void onFailure(String error) {
                        answered.completeExceptionally(new IllegalArgumentException(error));
                    }
                })));
        return answered;
    }

    void candidate(String sdpMid, int sdpMLineIndex, String candidate) {
        if (!closed) {
            peer.addIceCandidate(new RTCIceCandidate(sdpMid, sdpMLineIndex, candidate));
        }
    }

    private static SetSessionDescriptionObserver observer(CompletableFuture<String> failed, Runnable next) {
        return new SetSessionDescriptionObserver() {
            @Override
            public void onSuccess() {
                next.run();
            }

            @Override
            public void onFailure(String error) {
                failed.completeExceptionally(new IllegalArgumentException(error));
            }
        };
    }

    private synchronized void startSending() {
        if (sending || closed) {
            return;
        }
        // see the class comment: the sender started capturing when the answer was applied; from now on only the
        // pushes feed it (the first one a little after, off libwebrtc's thread)
        audio.stopRecording();
        sending = true;
        pusher.scheduleAtFixedRate(this::push, 50, 10, TimeUnit.MILLISECONDS);
        events.connected();
    }

    /** Every 10 ms on the pusher: the next chunk of the agent's audio (silence when there is none), and its marks. */
    private void push() {
        if (closed) {
            return;
        }
        byte[] chunk = SILENCE;
        for (Object next = out.pollFirst(); next != null; next = out.pollFirst()) {
            if (next instanceof String mark) {
                events.marked(mark);
            } else {
                chunk = (byte[]) next;
                break;
            }
        }
        voice.pushAudio(chunk, 16, RATE, 1, CHUNK_SAMPLES);
    }

    /** The browser's audio, on libwebrtc's playout thread: its first channel cut to 16 kHz 20 ms frames. */
    private AudioTrackSink sink() {
        return (data, bitsPerSample, sampleRate, channels, frames) -> {
            if (bitsPerSample != 16 || closed) {
                return;
            }
            int step = Math.max(1, sampleRate / FORMAT.sampleRate());
            for (int i = 0; i + step <= frames; i += step) {
                int sum = 0;
                for (int k = 0; k < step; k++) {
                    int at = ((i + k) * channels) * 2;
                    sum += (short) ((data[at] & 0xFF) | data[at + 1] << 8);
                }
                heard[heardFill++] = (short) (sum / step);
                if (heardFill == heard.length) {
                    byte[] frame = new byte[heard.length * 2];
                    for (int s = 0; s < heard.length; s++) {
                        frame[2 * s] = (byte) heard[s];
                        frame[2 * s + 1] = (byte) (heard[s] >> 8);
                    }
                    heardFill = 0;
                    events.audio(frame);
                }
            }
        };
    }

    // ---- MediaChannel (the call's loop) ----

    @Override
    public AudioFormat format() {
        return FORMAT;
    }

    /** 20 ms at 16 kHz, as two 10 ms chunks at 48 kHz (linear between samples). */
    @Override
    public void play(byte[] frame) {
        int samples = frame.length / 2;
        short[] in = new short[samples];
        for (int i = 0; i < samples; i++) {
            in[i] = (short) ((frame[2 * i] & 0xFF) | frame[2 * i + 1] << 8);
        }
        int factor = RATE / FORMAT.sampleRate();
        byte[] up = new byte[samples * factor * 2];
        for (int i = 0; i < samples; i++) {
            int next = i + 1 < samples ? in[i + 1] : in[i];
            for (int k = 0; k < factor; k++) {
                short v = (short) (in[i] + (next - in[i]) * k / factor);
                int at = (i * factor + k) * 2;
                up[at] = (byte) v;
                up[at + 1] = (byte) (v >> 8);
            }
        }
        for (int at = 0; at < up.length; at += SILENCE.length) {
            out.addLast(java.util.Arrays.copyOfRange(up, at, Math.min(up.length, at + SILENCE.length)));
        }
    }

    @Override
    public void mark(String name) {
        out.addLast(name);
    }

    @Override
    public void clear() {
        List<String> marks = new ArrayList<>();
        for (Object next = out.pollFirst(); next != null; next = out.pollFirst()) {
            if (next instanceof String mark) {
                marks.add(mark);
            }
        }
        marks.forEach(events::marked); // as a carrier: the cleared audio's marks come back at once
    }

    @Override
    public void feedback(Map<String, Object> event) {
        events.feedback(event);
    }

    @Override
    public void close(String reason) {
        events.closing(reason);
    }

    /** Ends the peer and frees libwebrtc's threads (blocking: off the event loop). */
    synchronized void dispose() {
        if (closed) {
            return;
        }
        closed = true;
        pusher.shutdownNow();
        try {
            pusher.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        peer.close();
        voiceTrack.dispose();
        voice.dispose();
        factory.dispose();
        try {
            audio.stopPlayout();
        } catch (RuntimeException ignored) {
            // already stopped
        }
        audio.dispose();
    }
}
