package dev.voiceagent.domain.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.knowledge.Chunker.Chunk;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkerTest {

    @Test
    void aChunkKeepsTheHeadingsAboveIt() {
        List<Chunk> chunks = Chunker.chunks("""
                # Guide
                Intro line.
                ## Billing
                ### Refunds
                Paid back in five days.
                ## Parking
                Behind the clinic.
                # Other guide
                Separate.
                """, 500, 50);
        assertThat(chunks).extracting(Chunk::text).containsExactly("Intro line.", "Paid back in five days.",
                "Behind the clinic.", "Separate.");
        assertThat(chunks.get(1).contextualizedText()).isEqualTo("Guide > Billing > Refunds\n\nPaid back in five days.");
        assertThat(chunks.get(2).metadata().get("headings")).isEqualTo(List.of("Guide", "Parking"));
        assertThat(chunks.get(3).metadata().get("headings")).isEqualTo(List.of("Other guide"));
        assertThat(chunks).extracting(Chunk::index).containsExactly(0, 1, 2, 3);
    }

    @Test
    void longTextIsCutAtSentencesWithOverlapAndNothingIsLost() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            text.append("Sentence number ").append(i).append(" says something useful. ");
        }
        List<Chunk> chunks = Chunker.chunks(text.toString(), 400, 80);
        assertThat(chunks).hasSizeGreaterThan(5);
        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.text().length()).isLessThanOrEqualTo(400);
            assertThat(c.text()).endsWith(".");
        });
        for (int i = 0; i < 60; i++) {
            String sentence = "Sentence number " + i + " says";
            assertThat(chunks).as(sentence).anySatisfy(c -> assertThat(c.text()).contains(sentence));
        }
        // consecutive chunks overlap
        for (int i = 1; i < chunks.size(); i++) {
            int previousEnd = (int) chunks.get(i - 1).metadata().get("end");
            int start = (int) chunks.get(i).metadata().get("start");
            assertThat(start).isLessThan(previousEnd).isGreaterThan(previousEnd - 120);
        }
    }

    @Test
    void aHashWithoutASpaceIsNotAHeadingAndEmptySectionsMakeNoChunk() {
        List<Chunk> chunks = Chunker.chunks("#hashtag stays text\n# Empty\n# Full\nbody", 200, 20);
        assertThat(chunks).extracting(Chunk::text).containsExactly("#hashtag stays text", "body");
        assertThat(Chunker.chunks("  \n\n ", 200, 20)).isEmpty();
    }

    @Test
    void reciprocalRankFusionFavoursWhatBothRankingsAgreeOn() {
        assertThat(RankFusion.fuse(List.of(List.of("a", "b", "c"), List.of("b", "d", "c")), 3))
                .containsExactly("b", "c", "a");
        assertThat(RankFusion.fuse(List.of(List.of("x"), List.of()), 5)).containsExactly("x");
    }
}
