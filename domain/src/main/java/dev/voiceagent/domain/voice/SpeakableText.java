package dev.voiceagent.domain.voice;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Cuts a language model's streamed text into sentences for speech as they arrive, so the first sentence is spoken
 * while the rest is still being written. A sentence ends at ., !, ? or a line break followed by white space (or the
 * end); a dot inside a number (3.50), an abbreviation (Dr., e.g.) or an initial (J. Smith) does not end it. Whatever
 * waits when the stream ends is the last sentence. Not thread-safe: one per answer.
 */
public final class SpeakableText {

    private static final Set<String> ABBREVIATIONS = Set.of("mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs",
            "etc", "e.g", "i.e", "approx", "no", "inc", "ltd", "co", "mt", "ft", "jan", "feb", "mar", "apr", "jun", "jul",
            "aug", "sep", "sept", "oct", "nov", "dec");

    private final StringBuilder pending = new StringBuilder();

    /** The sentences this piece of text completes, in order (trimmed, never blank). */
    public List<String> append(String delta) {
        pending.append(delta);
        List<String> sentences = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < pending.length() - 1; i++) {
            char c = pending.charAt(i);
            boolean end = (c == '.' || c == '!' || c == '?') && Character.isWhitespace(pending.charAt(i + 1))
                    && !(c == '.' && notAnEnd(pending, start, i));
            if (end || c == '\n') {
                add(sentences, pending.substring(start, i + 1));
                start = i + 1;
            }
        }
        pending.delete(0, start);
        return sentences;
    }

    /** What is left when the answer ends. */
    public List<String> finish() {
        List<String> last = new ArrayList<>();
        add(last, pending.toString());
        pending.setLength(0);
        return last;
    }

    private static void add(List<String> sentences, String text) {
        String s = text.strip();
        if (!s.isEmpty()) {
            sentences.add(s);
        }
    }

    /** A dot after an abbreviation or a single capital (an initial) ends no sentence. */
    private static boolean notAnEnd(CharSequence text, int from, int dot) {
        int wordStart = dot;
        while (wordStart > from && !Character.isWhitespace(text.charAt(wordStart - 1))) {
            wordStart--;
        }
        String word = text.subSequence(wordStart, dot).toString();
        if (word.length() == 1 && Character.isUpperCase(word.charAt(0))) {
            return true;
        }
        return ABBREVIATIONS.contains(word.toLowerCase(Locale.ROOT).replaceAll("^[(\"']+", ""));
    }
}
