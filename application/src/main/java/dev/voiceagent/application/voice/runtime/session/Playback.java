package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.domain.audio.AmbientLoop;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.voice.EchoGate;
import dev.voiceagent.domain.voice.Playout;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The agent's audio played to the caller, one {@link Speech} at a time, for the pipeline and the speech-to-speech
 * session alike: frames go to the carrier no further ahead of the caller's ear than the {@link Playout} allows, with
 * its marks (every half second and at each segment's end); the carrier's echoed marks say what was heard. A barge-in
 * {@link #cut}s the speech, clearing the carrier's queue, and says how much of it was heard; a {@link #hold} silences
 * it the same way but keeps its place, so that it {@link #resume}s with the first frame the caller did not hear.
 *
 * <p>With an ambient sound (the workflow's {@code ambient_noise_configuration}) the caller never hears digital silence:
 * the sound is mixed under every frame of the agent's, and while none is queued at the carrier it is sent alone,
 * {@link #AMBIENT_LEAD_MS} ahead of the ear at most ({@link #fill}, every tick). When a speech begins, what is queued of the
 * sound alone is cleared, so the agent's first word is not late for it; in a pause within a speech the agent's next
 * words wait behind at most that lead, which is also how far its heard position may run ahead until the next mark.
 * On the call's loop only.
 */
final class Playback {

    static final int FRAME_MS = 20;
    /** How much of the audio sent is kept to be sent again after a hold: more than the playout's lead. */
    private static final int RECENT_MS = 400;
    /** How far ahead of the caller's ear the ambient sound alone is queued (two frames: a late tick is no gap). */
    static final int AMBIENT_LEAD_MS = 40;

    private final CallLoop loop;
    private final MediaChannel media;
    private final CallRecording recording;
    private final EchoGate echo;
    private final boolean pcm;
    private final Playout playout = Playout.standard();
    private final int frameBytes;
    private final byte silence;
    private BiConsumer<Speech, Instant> speaking;
    private BiConsumer<Speech, Instant> played;
    private Speech current;
    /** The current speech's frames sent lately, with its segment ends: a hold sends again what was not heard. */
    private final Deque<byte[]> recent = new ArrayDeque<>();
    private long recentMs;
    private boolean held;
    /** The sound under the agent's voice, or null (silence between its words). */
    private final AmbientLoop ambience;
    /** When what was sent of the ambient sound alone has played at the carrier (null: nothing of it queued). */
    private Instant ambientUntil;

    Playback(CallLoop loop, MediaChannel media, CallRecording recording, EchoGate echo, AmbientLoop ambience) {
        this.loop = loop;
        this.media = media;
        this.recording = recording;
        this.echo = echo;
        this.ambience = ambience;
        this.pcm = media.format().encoding() == AudioFormat.Encoding.PCM16LE;
        this.frameBytes = media.format().bytes(FRAME_MS);
        this.silence = silence(media.format());
    }

    /** The byte of silence in a format (μ-law's 0xFF, PCM's 0). */
    static byte silence(AudioFormat format) {
        return format.encoding() == AudioFormat.Encoding.MULAW ? (byte) 0xFF : 0;
    }

    /**
     * What the session hears of its speeches.
     *
     * @param started a speech's first frame went to the carrier (the session may cut it, or end the call, meanwhile)
     * @param over all of a speech was played, its last mark came back; it is no longer the current one
     */
    void listen(BiConsumer<Speech, Instant> started, BiConsumer<Speech, Instant> over) {
        this.speaking = started;
        this.played = over;
    }

    /** A new speech, played once it is made current ({@link #play}). */
    Speech speech() {
        return new Speech(frameBytes, FRAME_MS, silence);
    }

    /** From now on {@code speech} is what plays (what played before is over or was cut). */
    void play(Speech speech) {
        current = speech;
        held = false;
        forgetRecent();
    }

    /** The speech playing, or null between answers. */
    Speech current() {
        return current;
    }

    /** Sends what the current speech may send now; tells the listener when it started and when it played out. */
    void pump() {
        Speech s = current;
        if (s == null) {
            return;
        }
        s.frame();
        if (held) {
            return; // the model and the voice go on; nothing is sent until it resumes
        }
        Instant now = loop.now();
        for (byte[] next = s.peek(); next != null; next = s.peek()) {
            if (next == Speech.SEGMENT_END) {
                s.poll();
                recent.addLast(next);
                playout.sentenceEnd().ifPresent(media::mark);
                continue;
            }
            if (playout.roomMs(now) < FRAME_MS) {
                break;
            }
            s.poll();
            remember(next);
            if (!s.speaking()) {
                dropQueuedAmbience(now);
            }
            short[] samples = pcm ? Pcm16.samples(next) : G711.decode(next);
            byte[] out = next;
            if (ambience != null) {
                ambience.mixInto(samples);
                out = pcm ? Pcm16.bytes(samples) : G711.encode(samples);
            }
            media.play(out);
            recording.agent(out);
            echo.sent(Loudness.dbfs(samples), now);
            playout.sent(FRAME_MS, now).ifPresent(media::mark);
            if (!s.speaking()) {
                s.startedSpeaking();
                speaking.accept(s, now);
                if (current != s) {
                    return; // cut, or the call ended, as it started
                }
            }
        }
        if (s.drained() && playout.allPlayed()) {
            playout.clear(now);
            current = null;
            played.accept(s, now);
        }
    }

    /**
     * Every tick: while nothing of the agent's is queued at the carrier (between answers, in a pause of one, while
     * held), the ambient sound goes alone, kept {@link #AMBIENT_LEAD_MS} ahead of the caller's ear. It is not the
     * agent's voice: the echo gate does not count it.
     */
    void fill() {
        if (ambience == null) {
            return;
        }
        Instant now = loop.now();
        if (current != null && !held && playout.unheardMs(now) > 0) {
            return; // the agent's frames carry the sound
        }
        if (ambientUntil == null || ambientUntil.isBefore(now)) {
            ambientUntil = now;
        }
        int samples = frameBytes / (pcm ? 2 : 1);
        while (ambientUntil.isBefore(now.plusMillis(AMBIENT_LEAD_MS))) {
            short[] sound = ambience.next(samples);
            byte[] frame = pcm ? Pcm16.bytes(sound) : G711.encode(sound);
            media.play(frame);
            recording.agent(frame);
            ambientUntil = ambientUntil.plusMillis(FRAME_MS);
        }
    }

    /** A speech begins: the carrier drops the ambient sound queued alone, so its first word plays at once. */
    private void dropQueuedAmbience(Instant now) {
        if (ambientUntil != null && ambientUntil.isAfter(now)) {
            media.clear();
            recording.cleared();
        }
        ambientUntil = null;
    }

    /** The carrier played the audio up to this mark. */
    void marked(String name) {
        if (playout.marked(name, loop.now())) {
            pump();
        }
    }

    /**
     * The caller spoke over the agent (or the call must stop talking at once): the carrier drops what it holds, the
     * current speech is over, and this says how much of it the caller heard, in milliseconds of its audio.
     */
    long cut() {
        current = null;
        if (!held) { // a held agent's carrier holds nothing since the hold
            media.clear();
            recording.cleared();
        }
        held = false;
        forgetRecent();
        return playout.clear(loop.now());
    }

    /**
     * The caller began speaking over the agent: the carrier drops what it holds (silent at once), and the frames it
     * dropped go back in front of the current speech, which sends nothing more until it {@link #resume}s; the model
     * and the voice go on meanwhile.
     */
    void hold() {
        Speech s = current;
        if (s == null || held) {
            return;
        }
        held = true;
        media.clear();
        recording.cleared();
        long unheard = playout.unheardMs(loop.now());
        List<byte[]> back = new ArrayList<>(); // newest first
        long backMs = 0;
        while (!recent.isEmpty() && backMs < unheard) {
            byte[] frame = recent.pollLast();
            back.add(frame);
            if (frame != Speech.SEGMENT_END) {
                backMs += FRAME_MS;
            }
        }
        s.unsend(back);
        playout.rewind(backMs, loop.now());
        forgetRecent();
    }

    /** What held the agent was no turn: its speech goes on from the first frame the caller did not hear. */
    void resume() {
        if (held) {
            held = false;
            pump();
        }
    }

    /** Whether the agent is held (see {@link #hold}). */
    boolean held() {
        return held;
    }

    private void remember(byte[] frame) {
        recent.addLast(frame);
        recentMs += FRAME_MS;
        while (recentMs > RECENT_MS) {
            if (recent.pollFirst() != Speech.SEGMENT_END) {
                recentMs -= FRAME_MS;
            }
        }
    }

    private void forgetRecent() {
        recent.clear();
        recentMs = 0;
    }

    /** How much of what was sent the caller has heard by now (the carrier's queue kept). */
    long heardMs() {
        return playout.playedMs(loop.now());
    }

    /** Nothing more plays (the call ended or moved); the carrier keeps what it holds. */
    void stop() {
        current = null;
        held = false;
    }
}
