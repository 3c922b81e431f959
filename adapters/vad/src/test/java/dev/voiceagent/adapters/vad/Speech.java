package dev.voiceagent.adapters.vad;

import com.sun.speech.freetts.Voice;
import com.sun.speech.freetts.VoiceManager;
import com.sun.speech.freetts.audio.SingleFileAudioPlayer;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;

/** Real speech for tests: FreeTTS's kevin16 voice (16 kHz), resampled to 8 kHz. */
final class Speech {

    private Speech() {
    }

    static synchronized short[] say(String text) throws Exception {
        System.setProperty("freetts.voices", "com.sun.speech.freetts.en.us.cmu_us_kal.KevinVoiceDirectory");
        Voice voice = VoiceManager.getInstance().getVoice("kevin16");
        voice.allocate();
        Path dir = Files.createTempDirectory("speech");
        String base = dir.resolve("line").toString();
        SingleFileAudioPlayer player = new SingleFileAudioPlayer(base, javax.sound.sampled.AudioFileFormat.Type.WAVE);
        voice.setAudioPlayer(player);
        voice.speak(text);
        player.close();
        voice.deallocate();
        try (AudioInputStream in = AudioSystem.getAudioInputStream(new File(base + ".wav"))) {
            AudioFormat f = in.getFormat();
            byte[] bytes = in.readAllBytes();
            short[] samples = f.isBigEndian() ? bigEndian(bytes) : Pcm16.samples(bytes);
            return new Resampler((int) f.getSampleRate(), 8_000).process(samples);
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
