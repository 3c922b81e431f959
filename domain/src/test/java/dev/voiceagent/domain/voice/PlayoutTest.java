package dev.voiceagent.domain.voice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The agent's audio at the carrier: pacing, marks, what was heard, on a virtual clock. */
class PlayoutTest {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
    private final Playout playout = Playout.standard();

    private static Instant at(long ms) {
        return T0.plusMillis(ms);
    }

    /** Sends 20 ms frames at {@code ms} while there is room; returns the marks to send. */
    private List<String> fill(long ms) {
        List<String> marks = new ArrayList<>();
        while (playout.roomMs(at(ms)) >= 20) {
            playout.sent(20, at(ms)).ifPresent(marks::add);
        }
        return marks;
    }

    @Test
    void audioIsQueuedAtMostTheLeadAheadOfTheCallersEar() {
        fill(0);
        assertThat(playout.roomMs(at(0))).isZero();
        assertThat(playout.playedMs(at(0))).isZero();
        assertThat(playout.roomMs(at(100))).as("100 ms played, 100 ms of room").isEqualTo(100);
        fill(100);
        assertThat(playout.playedMs(at(150))).isEqualTo(150);
        assertThat(playout.playedMs(at(10_000))).as("never more than was sent").isEqualTo(300);
    }

    @Test
    void marksGoEveryHalfSecondOfAudioAndTheirEchoesCorrectTheClock() {
        List<String> marks = new ArrayList<>();
        for (long t = 0; t <= 1_000; t += 20) {
            marks.addAll(fill(t));
        }
        assertThat(marks).containsExactly("m1", "m2");
        // the carrier started late: the first mark (500 ms of audio) comes back at 700 ms
        assertThat(playout.marked("m1", at(700))).isTrue();
        assertThat(playout.playedMs(at(800))).as("the echo, not the clock, says where the caller is").isEqualTo(600);
        assertThat(playout.allPlayed()).isFalse();
        assertThat(playout.sentenceEnd()).as("the audio after m2 needs its own mark, a sentence's").contains("s3");
        assertThat(playout.sentenceEnd()).as("one mark per position").isEmpty();
        assertThat(playout.marked("s3", at(1_500))).as("a later mark confirms the earlier ones too").isTrue();
        assertThat(playout.allPlayed()).isTrue();
    }

    @Test
    void aBargeInReportsWhatWasHeardAndForgetsTheClearedAudiosMarks() {
        for (long t = 0; t <= 600; t += 20) {
            fill(t);
        }
        assertThat(playout.clear(at(640))).isEqualTo(640);
        assertThat(playout.marked("m1", at(660))).as("a mark of cleared audio echoed late").isFalse();
        assertThat(playout.marked("x9", at(660))).as("a name never sent").isFalse();
        assertThat(playout.playedMs(at(700))).as("the next answer starts from zero").isZero();
        assertThat(playout.allPlayed()).isTrue();
    }

    @Test
    void playbackRestartsWhenAudioArrivesAfterTheQueueRanDry() {
        playout.sent(100, at(0));
        playout.sent(100, at(1_000)); // the model was slow: the caller heard silence for 0.9 s
        assertThat(playout.playedMs(at(1_050))).isEqualTo(150);
        assertThat(playout.roomMs(at(1_050))).isEqualTo(150);
    }

    @Test
    void nonsenseIsRefused() {
        assertThatThrownBy(() -> new Playout(Duration.ZERO, Duration.ofMillis(500)))
                .isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> playout.sent(-1, T0)).isInstanceOf(DomainRuleViolation.class);
    }

    @Test
    void aHeldAnswerGoesBackToWhatWasHeardAndItsLaterMarksAreForgotten() {
        List<String> marks = new ArrayList<>();
        for (long t = 0; t <= 300; t += 20) {
            marks.addAll(fill(t)); // 500 ms sent by 300 ms: a mark at 500
        }
        assertThat(marks).containsExactly("m1");
        assertThat(playout.unheardMs(at(310))).as("sent but not heard").isEqualTo(190);
        playout.rewind(200, at(310)); // ten whole frames go again
        assertThat(playout.playedMs(at(2_000))).as("held: the position stays").isEqualTo(300);
        assertThat(playout.roomMs(at(2_000))).isEqualTo(200);
        assertThat(playout.marked("m1", at(2_000))).as("a mark past the hold was cleared with it").isFalse();
        assertThat(fill(2_000)).isEmpty();
        assertThat(playout.playedMs(at(2_100))).as("the resumed audio plays on from there").isEqualTo(400);
        assertThat(playout.sentenceEnd()).hasValueSatisfying(m -> assertThat(playout.marked(m, at(2_200))).isTrue());
        assertThat(playout.allPlayed()).isTrue();
    }
}
