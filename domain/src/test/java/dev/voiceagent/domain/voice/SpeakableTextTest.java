package dev.voiceagent.domain.voice;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpeakableTextTest {

    /** Streams the text in pieces of {@code size} characters; every sentence, in order. */
    private static List<String> stream(String text, int size) {
        SpeakableText chunker = new SpeakableText();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < text.length(); i += size) {
            out.addAll(chunker.append(text.substring(i, Math.min(text.length(), i + size))));
        }
        out.addAll(chunker.finish());
        return out;
    }

    @Test
    void sentencesLeaveAsSoonAsTheyAreCompleteWhateverThePieces() {
        String answer = "Sure! Your table is booked for 7.30 pm. Dr. J. Smith will join you, e.g. at the bar? See you\n"
                + "Bye";
        List<String> expected = List.of("Sure!", "Your table is booked for 7.30 pm.",
                "Dr. J. Smith will join you, e.g. at the bar?", "See you", "Bye");
        for (int size : new int[] {1, 2, 3, 7, 1_000}) {
            assertThat(stream(answer, size)).as("pieces of %d", size).isEqualTo(expected);
        }
    }

    @Test
    void aSentenceWaitsForWhatFollowsItsStopAndTheRestLeavesAtTheEnd() {
        SpeakableText chunker = new SpeakableText();
        assertThat(chunker.append("It costs $12.")).as("the dot may be a decimal point").isEmpty();
        assertThat(chunker.append("50 a month. Want")).containsExactly("It costs $12.50 a month.");
        assertThat(chunker.append(" it?")).isEmpty();
        assertThat(chunker.finish()).containsExactly("Want it?");
        assertThat(chunker.finish()).isEmpty();
    }
}
