package dev.voiceagent.domain.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContactTest {

    private static final List<String> HEADER = List.of("phone_number", "first_name", "greeting_override_type",
            "greeting_override_text", "greeting_override_recording_id");

    @Test
    void greetingOverrideColumnsFoldIntoOneValueWhenComplete() {
        assertThat(Contact.contextOf(HEADER, List.of("+1555", "Ann", "Text ", "Hi Ann!", "")))
                .containsEntry("greeting_override", Map.of("type", "text", "text", "Hi Ann!"))
                .doesNotContainKeys("greeting_override_type", "greeting_override_text", "greeting_override_recording_id");
        assertThat(Contact.contextOf(HEADER, List.of("+1555", "Ann", "audio", "", " rec-7 ")))
                .containsEntry("greeting_override", Map.of("type", "audio", "recording_id", "rec-7"));
        assertThat(Contact.contextOf(HEADER, List.of("+1555", "Ann", "text", "  ", "rec-7")))
                .as("incomplete: dropped").doesNotContainKey("greeting_override").containsEntry("first_name", "Ann");
    }

    @Test
    void missingTrailingCellsAreEmptyStrings() {
        assertThat(Contact.contextOf(HEADER, List.of("+1555"))).containsEntry("first_name", "")
                .doesNotContainKey("greeting_override");
    }

    @Test
    void theSourceUuidIsTheReferences() {
        // the data row is the file line minus the header line
        assertThat(Contact.sourceUuid("campaigns/1/a.csv", 2)).matches("csv_[0-9a-f]{8}_row_1");
        assertThat(Contact.sourceUuid("x", 11)).isEqualTo("csv_9dd4e461_row_10");
    }
}
