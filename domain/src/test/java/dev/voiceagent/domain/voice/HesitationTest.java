package dev.voiceagent.domain.voice;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HesitationTest {

    @Test
    void aSentenceThatStopsOnAWordItCannotEndOnIsUnfinished() {
        assertThat(Hesitation.unfinished("I would like to")).isTrue();
        assertThat(Hesitation.unfinished("I would like to.")).as("a recognizer's period changes nothing").isTrue();
        assertThat(Hesitation.unfinished("My number is, um")).isTrue();
        assertThat(Hesitation.unfinished("Book it for Tuesday and")).isTrue();
        assertThat(Hesitation.unfinished("Let me think,")).isTrue();
        assertThat(Hesitation.unfinished("Well...")).isTrue();
    }

    @Test
    void aCompleteSentenceAQuestionOrNothingIsNot() {
        assertThat(Hesitation.unfinished("I would like to book an appointment for Tuesday.")).isFalse();
        assertThat(Hesitation.unfinished("Where is my order?")).isFalse();
        assertThat(Hesitation.unfinished("Is that for me?")).isFalse();
        assertThat(Hesitation.unfinished("No that is all thanks")).isFalse();
        assertThat(Hesitation.unfinished("That's all I need.")).isFalse();
        assertThat(Hesitation.unfinished("Yes it is")).isFalse();
        assertThat(Hesitation.unfinished("")).isFalse();
        assertThat(Hesitation.unfinished(null)).isFalse();
    }
}
