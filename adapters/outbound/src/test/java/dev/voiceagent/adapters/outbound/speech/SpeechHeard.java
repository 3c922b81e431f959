package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * What a text-to-speech stream told its listener, for the provider tests: every event in order ("u1:audio",
 * "u1:restart", "u1:done", "failed:..."), and each utterance's audio as it stands (forgotten on a restart, as the
 * session forgets it).
 */
final class SpeechHeard implements TextToSpeech.Listener {

    final List<String> events = new CopyOnWriteArrayList<>();
    final Map<String, ByteArrayOutputStream> audio = new ConcurrentHashMap<>();

    @Override
    public void audio(String utterance, byte[] bytes) {
        events.add(utterance + ":audio");
        audio.computeIfAbsent(utterance, u -> new ByteArrayOutputStream()).writeBytes(bytes);
    }

    @Override
    public void done(String utterance) {
        events.add(utterance + ":done");
    }

    @Override
    public void restart(String utterance) {
        events.add(utterance + ":restart");
        audio.remove(utterance);
    }

    @Override
    public void failed(String message) {
        events.add("failed:" + message);
    }

    /** The utterance's audio so far (empty when none came). */
    byte[] of(String utterance) {
        ByteArrayOutputStream bytes = audio.get(utterance);
        return bytes == null ? new byte[0] : bytes.toByteArray();
    }

    /** The events of one utterance, in order; with {@code collapseAudio}, a run of audio messages is one "audio". */
    List<String> of(String utterance, boolean collapseAudio) {
        List<String> mine = events.stream().filter(e -> e.startsWith(utterance + ":")).toList();
        if (!collapseAudio) {
            return mine;
        }
        List<String> out = new ArrayList<>();
        for (String e : mine) {
            if (!(e.endsWith(":audio") && !out.isEmpty() && out.getLast().equals(e))) {
                out.add(e);
            }
        }
        return out;
    }

    /** Waits (at most 5 s) for an event starting with {@code prefix}. */
    void await(String prefix) {
        until(() -> events.stream().anyMatch(e -> e.startsWith(prefix)), "an event " + prefix);
    }

    /** Polls {@code condition} every 10 ms for at most 5 s. */
    void until(BooleanSupplier condition, String what) {
        awaitCondition(condition, what + " (events " + events + ")");
    }

    static void awaitCondition(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }
}
