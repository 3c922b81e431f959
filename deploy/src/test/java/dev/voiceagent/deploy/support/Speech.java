package dev.voiceagent.deploy.support;

import com.sun.speech.freetts.Voice;
import com.sun.speech.freetts.VoiceManager;
import com.sun.speech.freetts.audio.SingleFileAudioPlayer;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;

/**
 * Real speech for the simulated callers: FreeTTS's kevin16 voice (a pure-Java synthesizer, the voice inside its jar),
 * resampled from 16 kHz to 8 kHz and μ-law encoded as a phone line carries it. Each line is synthesized once.
 */
public final class Speech {

    private static final Map<String, byte[]> SAID = new ConcurrentHashMap<>();

    private Speech() {
    }

    /** The line as μ-law 8 kHz, its length a whole number of 20 ms frames. */
    public static byte[] mulaw(String text) {
        return SAID.computeIfAbsent(text, Speech::synthesize);
    }

    private static synchronized byte[] synthesize(String text) {
        try {
            System.setProperty("freetts.voices", "com.sun.speech.freetts.en.us.cmu_us_kal.KevinVoiceDirectory");
            Voice voice = VoiceManager.getInstance().getVoice("kevin16");
            voice.allocate();
            Path dir = Files.createTempDirectory("speech");
            String base = dir.resolve("line").toString();
            SingleFileAudioPlayer player = new SingleFileAudioPlayer(base,
                    javax.sound.sampled.AudioFileFormat.Type.WAVE);
            voice.setAudioPlayer(player);
            voice.speak(text);
            player.close();
            voice.deallocate();
            File wav = new File(base + ".wav");
            try (AudioInputStream in = AudioSystem.getAudioInputStream(wav)) {
                AudioFormat f = in.getFormat();
                byte[] bytes = in.readAllBytes();
                short[] samples = f.isBigEndian() ? bigEndian(bytes) : Pcm16.samples(bytes);
                short[] line = new Resampler((int) f.getSampleRate(), 8_000).process(samples);
                short[] whole = java.util.Arrays.copyOf(line, (line.length + 159) / 160 * 160);
                return G711.encode(whole);
            } finally {
                Files.deleteIfExists(wav.toPath());
                Files.deleteIfExists(dir);
            }
        } catch (Exception e) {
            throw new IllegalStateException("FreeTTS could not say: " + text, e);
        }
    }

    private static short[] bigEndian(byte[] bytes) {
        short[] out = new short[bytes.length / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (short) ((bytes[2 * i] << 8) | (bytes[2 * i + 1] & 0xFF));
        }
        return out;
    }
}
