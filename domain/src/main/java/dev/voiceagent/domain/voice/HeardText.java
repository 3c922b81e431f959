package dev.voiceagent.domain.voice;

import java.util.ArrayList;
import java.util.List;

/**
 * What the caller heard of an interrupted answer, which is all the conversation keeps of it: the sentences played in
 * full (their audio ended before playback stopped, as the carrier's marks tell), the sentence in progress cut to the
 * words whose audio was played when the voice provider gave word timings, and dropped when it did not; never text
 * that was not played.
 */
public final class HeardText {

    /** A word's place on the sentence's audio, in milliseconds from the sentence's start. */
    public record Word(String text, long startMs, long endMs) {
    }

    /**
     * A sentence sent to speech: where its audio starts and ends on the answer's timeline (milliseconds of audio
     * sent before it), and its words' timings when the provider gives them (empty otherwise).
     */
    public record Sentence(String text, long startMs, long endMs, List<Word> words) {

        public Sentence {
            words = words == null ? List.of() : List.copyOf(words);
        }
    }

    private HeardText() {
    }

    /**
     * Words spread over audio of {@code durationMs} by their length in characters (a space counting as one), for a voice
     * that gives the text of its audio but no timings (a speech-to-speech model's transcript): an estimate, so a cut
     * sentence keeps roughly the words that were played.
     */
    public static List<Word> spread(String text, long durationMs) {
        List<Word> words = new ArrayList<>();
        if (text == null || text.isBlank() || durationMs <= 0) {
            return words;
        }
        String[] parts = text.strip().split("\\s+");
        long total = 0;
        for (String p : parts) {
            total += p.length() + 1;
        }
        long at = 0;
        for (String p : parts) {
            long start = at * durationMs / total;
            at += p.length() + 1;
            words.add(new Word(p, start, at * durationMs / total));
        }
        return words;
    }

    /** @param playedMs how much of the answer's audio was played when it stopped */
    public static String of(List<Sentence> sentences, long playedMs) {
        List<String> heard = new ArrayList<>();
        for (Sentence s : sentences) {
            if (s.endMs() <= playedMs) {
                heard.add(s.text());
            } else if (s.startMs() < playedMs) {
                List<String> words = new ArrayList<>();
                for (Word w : s.words()) {
                    if (s.startMs() + w.endMs() <= playedMs) {
                        words.add(w.text());
                    }
                }
                if (!words.isEmpty()) {
                    heard.add(String.join(" ", words));
                }
                break;
            } else {
                break;
            }
        }
        return String.join(" ", heard);
    }
}
