package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.voice.HeardText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ElevenLabs' per-message character alignment (times restart at zero in every message) as words on a sentence. */
class ElevenLabsAlignmentTest {

    private static JsonObject alignment(String chars, int... startsThenDurations) {
        JsonArray c = new JsonArray();
        chars.chars().forEach(ch -> c.add(String.valueOf((char) ch)));
        JsonArray starts = new JsonArray();
        JsonArray durations = new JsonArray();
        for (int i = 0; i < chars.length(); i++) {
            starts.add(startsThenDurations[i]);
            durations.add(startsThenDurations[chars.length() + i]);
        }
        return new JsonObject().put("chars", c).put("charStartTimesMs", starts).put("charDurationsMs", durations);
    }

    @Test
    void wordsSpanMessagesAndTakeTheirPlaceAfterTheAudioBeforeThem() {
        ElevenLabsStream.Words words = new ElevenLabsStream.Words();
        List<HeardText.Word> out = new ArrayList<>();
        // "Hi th" in the first message (audio 0..100 ms), "ere." in the second (its audio starts at 100 ms)
        out.addAll(ElevenLabsStream.words(words, alignment("Hi th", 0, 20, 40, 60, 80, 20, 20, 20, 20, 20), 0, false));
        assertThat(out).containsExactly(new HeardText.Word("Hi", 0, 40));
        out.addAll(ElevenLabsStream.words(words, alignment("ere.", 0, 10, 20, 30, 10, 10, 10, 10), 100, false));
        assertThat(out).hasSize(1); // "there." waits for a space or the sentence's end
        out.addAll(ElevenLabsStream.words(words, null, 0, true));
        assertThat(out).containsExactly(new HeardText.Word("Hi", 0, 40), new HeardText.Word("there.", 60, 140));
        assertThat(HeardText.of(List.of(new HeardText.Sentence("Hi there.", 1_000, Long.MAX_VALUE, out)), 1_100))
                .as("cut at 100 ms into the sentence: the first word only").isEqualTo("Hi");
    }
}
