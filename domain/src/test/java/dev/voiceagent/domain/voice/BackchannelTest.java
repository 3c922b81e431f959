package dev.voiceagent.domain.voice;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BackchannelTest {

    @Test
    void acknowledgementsHoweverSpelledAreBackchannels() {
        for (String said : new String[] {"uh-huh", "Uh huh.", "mhm", "Mm-hmm.", "okay", "Okay, okay.", "yeah",
                "Yeah, right.", "Got it.", "I see.", "oh okay", "Sure!", "all right"}) {
            assertThat(Backchannel.only(said)).as(said).isTrue();
        }
    }

    @Test
    void anythingElseIsATurn() {
        for (String said : new String[] {"wait", "No.", "Stop.", "What?", "okay but how much", "yeah I have a question",
                "Tuesday", "yes yes yes yes yes", "", "   ", "...", "Espera."}) {
            assertThat(Backchannel.only(said)).as(said).isFalse();
        }
        assertThat(Backchannel.only(null)).isFalse();
    }

    @Test
    void wordsAreTold() {
        assertThat(Backchannel.anyWords("...")).isFalse();
        assertThat(Backchannel.anyWords(null)).isFalse();
        assertThat(Backchannel.anyWords("hm")).isTrue();
    }
}
