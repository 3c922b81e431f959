package dev.voiceagent.domain.voice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.voice.HeardText.Sentence;
import dev.voiceagent.domain.voice.HeardText.Word;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeardTextTest {

    private static final Sentence FIRST = new Sentence("Your table is booked.", 0, 1_400, List.of());
    private static final Sentence TIMED = new Sentence("It is by the window, near the bar.", 1_400, 3_600, List.of(
            new Word("It", 0, 150), new Word("is", 150, 300), new Word("by", 300, 450), new Word("the", 450, 600),
            new Word("window,", 600, 1_100), new Word("near", 1_200, 1_500), new Word("the", 1_500, 1_650),
            new Word("bar.", 1_650, 2_200)));
    private static final Sentence UNTIMED = new Sentence("Anything else?", 1_400, 2_600, List.of());

    @Test
    void sentencesPlayedInFullAreKeptAndTheOneInProgressKeepsItsPlayedWords() {
        assertThat(HeardText.of(List.of(FIRST, TIMED), 3_600)).isEqualTo(
                "Your table is booked. It is by the window, near the bar.");
        assertThat(HeardText.of(List.of(FIRST, TIMED), 2_600)).isEqualTo("Your table is booked. It is by the window,");
        assertThat(HeardText.of(List.of(FIRST, TIMED), 1_450)).as("no word of the second played in full")
                .isEqualTo("Your table is booked.");
    }

    @Test
    void withoutWordTimingsTheSentenceInProgressIsDroppedAndNothingUnplayedIsKept() {
        assertThat(HeardText.of(List.of(FIRST, UNTIMED), 2_000)).isEqualTo("Your table is booked.");
        assertThat(HeardText.of(List.of(FIRST, UNTIMED), 700)).isEmpty();
        assertThat(HeardText.of(List.of(FIRST, UNTIMED), 0)).isEmpty();
    }

    @Test
    void wordsWithoutTimingsAreSpreadByTheirLengthSoACutSentenceKeepsRoughlyWhatWasPlayed() {
        List<Word> words = HeardText.spread("Returns are easy. You can send it back.", 3_900);
        assertThat(words).extracting(Word::text).containsExactly("Returns", "are", "easy.", "You", "can", "send",
                "it", "back.");
        assertThat(words.getFirst().startMs()).isZero();
        assertThat(words.getLast().endMs()).isEqualTo(3_900);
        for (int i = 1; i < words.size(); i++) {
            assertThat(words.get(i).startMs()).isEqualTo(words.get(i - 1).endMs());
        }
        assertThat(words.get(0).endMs()).as("a long word lasts longer").isGreaterThan(words.get(1).endMs()
                - words.get(1).startMs());
        Sentence spoken = new Sentence("Returns are easy. You can send it back.", 0, 3_900, words);
        assertThat(HeardText.of(List.of(spoken, UNTIMED), 1_800)).isEqualTo("Returns are easy.");
        assertThat(HeardText.spread("", 1_000)).isEmpty();
        assertThat(HeardText.spread("Hello", 0)).isEmpty();
    }
}
