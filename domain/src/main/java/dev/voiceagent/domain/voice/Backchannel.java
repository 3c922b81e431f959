package dev.voiceagent.domain.voice;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether what the caller said over the agent is only a backchannel, a sign of listening rather than a turn: a few
 * words ({@value #MAX_WORDS} at most) that are all acknowledgements ("uh-huh", "mm-hmm", "okay", "yeah", "right",
 * "sure", "got it", "I see", "oh", "wow"), however the recognizer spelled them ("Uh huh.", "mhm", "Okay, okay.").
 * Anything else ("wait", "no", "stop", a question, a name) is a turn. English; words of another language are a turn
 * (the agent stops, as it always did).
 */
public final class Backchannel {

    static final int MAX_WORDS = 4;

    private static final Set<String> WORDS = Set.of("uh-huh", "uhhuh", "uh", "huh", "mhm", "mhmm", "mm-hmm", "mmhmm",
            "mm", "mmm", "hmm", "hm", "um", "ah", "oh", "okay", "ok", "kay", "yeah", "yes", "yep", "yup", "ya", "yah",
            "right", "sure", "alright", "cool", "great", "nice", "wow", "exactly", "totally", "absolutely", "indeed",
            "true", "gotcha", "good", "fine", "perfect");
    /** Acknowledgements of two words, said as one. */
    private static final Set<String> PAIRS = Set.of("uh huh", "mm hmm", "got it", "i see", "all right", "makes sense",
            "sounds good", "oh okay", "oh ok", "i know", "of course");

    private Backchannel() {
    }

    /** True when {@code said} has words and every one of them is an acknowledgement. */
    public static boolean only(String said) {
        List<String> words = words(said);
        if (words.isEmpty() || words.size() > MAX_WORDS) {
            return false;
        }
        for (int i = 0; i < words.size(); i++) {
            if (i + 1 < words.size() && PAIRS.contains(words.get(i) + " " + words.get(i + 1))) {
                i++;
            } else if (!WORDS.contains(words.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Whether the caller said anything at all (a recognizer's final may be empty, or only punctuation). */
    public static boolean anyWords(String said) {
        return !words(said).isEmpty();
    }

    private static List<String> words(String said) {
        List<String> words = new ArrayList<>();
        if (said == null) {
            return words;
        }
        for (String w : said.toLowerCase(Locale.ROOT).split("[\\s,.!?;:\u2026\"]+")) {
            String word = w.replaceAll("^[-']+|[-']+$", "");
            if (!word.isEmpty()) {
                words.add(word);
            }
        }
        return words;
    }
}
