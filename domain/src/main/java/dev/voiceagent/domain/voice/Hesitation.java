package dev.voiceagent.domain.voice;

import java.util.Locale;
import java.util.Set;

/**
 * Whether what the caller said so far sounds unfinished, so the turn waits a little for more: a final transcript that
 * ends on a comma, a dash or an ellipsis, or whose last word is one a sentence does not end on (an article, a
 * preposition, a conjunction, a possessive, "I", a filler such as "um"), with or without the period a recognizer may
 * put after it ("I would like to." is still unfinished). Verbs and pronouns a sentence can end on ("that's all I
 * need", "yes it is") are not on the list: a complete sentence is answered without the wait. English; anything else sounds finished (no added wait).
 */
public final class Hesitation {

    private static final Set<String> OPEN_ENDED = Set.of("a", "an", "the", "to", "of", "for", "with", "at", "from",
            "about", "into", "and", "or", "but", "so", "because", "if", "than", "my", "your", "our", "their", "his",
            "her", "i", "i'm", "um", "uh", "er", "erm", "uhm", "hmm");

    private Hesitation() {
    }

    public static boolean unfinished(String said) {
        if (said == null) {
            return false;
        }
        String t = said.strip();
        if (t.isEmpty()) {
            return false;
        }
        if (t.endsWith(",") || t.endsWith("-") || t.endsWith("...") || t.endsWith("\u2026")) {
            return true;
        }
        if (t.endsWith("?") || t.endsWith("!")) {
            return false; // a question or an exclamation is complete whatever its last word
        }
        String[] words = t.split("\\s+");
        String last = words[words.length - 1].toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}']", "");
        return words.length > 0 && OPEN_ENDED.contains(last);
    }
}
