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
}
