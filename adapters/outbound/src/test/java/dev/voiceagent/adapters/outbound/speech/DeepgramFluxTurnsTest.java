package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.outbound.RetryBudget;
import org.junit.jupiter.api.Test;

/** A Flux turn's finals pass on each word once: an eager end, the end that confirms it, a turn resumed after it. */
class DeepgramFluxTurnsTest {

    @Test
    void aTurnsLaterFinalsPassOnOnlyTheWordsNotGivenYet() {
        DeepgramListen flux = new DeepgramListen(null, null, RetryBudget.none(), AudioFormat.MULAW_8K,
                new SpeechToText.Listener() {
            @Override
            public void transcript(String text, boolean isFinal) {
            }

            @Override
            public void failed(String message) {
            }
        }, true);
        assertThat(flux.freshWords(0, "I want to")).as("the eager end").isEqualTo("I want to");
        assertThat(flux.freshWords(0, "I want to")).as("the end that confirms it").isEmpty();
        assertThat(flux.freshWords(0, "I want to book a table")).as("the turn resumed").isEqualTo("book a table");
        assertThat(flux.freshWords(1, "For two")).as("the next turn").isEqualTo("For two");
        assertThat(flux.freshWords(1, "Four people")).as("a transcript Flux rewrote").isEqualTo("Four people");
    }

    @Test
    void anEndOfTurnWithNothingNewIsAnEmptyFinalAndAnUpdateWithoutWordsIsNothing() {
        java.util.List<String> heard = new java.util.ArrayList<>();
        DeepgramListen flux = new DeepgramListen(null, null, RetryBudget.none(), AudioFormat.MULAW_8K,
                new SpeechToText.Listener() {
            @Override
            public void transcript(String text, boolean isFinal) {
                heard.add((isFinal ? "final:" : "interim:") + text);
            }

            @Override
            public void failed(String message) {
            }
        }, true);
        flux.message("{\"type\":\"TurnInfo\",\"event\":\"Update\",\"turn_index\":0,\"transcript\":\"\"}");
        flux.message("{\"type\":\"TurnInfo\",\"event\":\"Update\",\"turn_index\":0,\"transcript\":\"I want\"}");
        flux.message("{\"type\":\"TurnInfo\",\"event\":\"EagerEndOfTurn\",\"turn_index\":0,"
                + "\"transcript\":\"I want to\"}");
        flux.message("{\"type\":\"TurnInfo\",\"event\":\"EndOfTurn\",\"turn_index\":0,"
                + "\"transcript\":\"I want to\"}");
        flux.message("{\"type\":\"TurnInfo\",\"event\":\"EndOfTurn\",\"turn_index\":1,\"transcript\":\"\"}");
        assertThat(heard).containsExactly("interim:I want", "final:I want to", "final:", "final:");
    }
}
