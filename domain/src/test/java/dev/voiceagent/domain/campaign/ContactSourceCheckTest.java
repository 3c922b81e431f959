package dev.voiceagent.domain.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ContactSourceCheckTest {

    /** A stand-in normalizer: digits with a leading + are valid, spaces removed. */
    private static final UnaryOperator<String> E164 = raw -> {
        String n = raw.replace(" ", "");
        if (!n.matches("\\+\\d{8,15}")) {
            throw new DomainRuleViolation("invalid");
        }
        return n;
    };

    private static ContactSourceCheck check(Set<String> variables, List<List<String>> rows) {
        ContactSourceCheck check = new ContactSourceCheck(variables, E164);
        check.header(rows.getFirst());
        rows.stream().skip(1).forEach(check::row);
        return check;
    }

    @Test
    void aGoodSourcePassesAndCountsItsRows() {
        ContactSourceCheck check = check(Set.of("first_name"), List.of(
                List.of("\uFEFFPhone_Number ", "First_Name", "timezone"),
                List.of("+1 415 555 2671", "Ann", "America/New_York"),
                List.of("", "", ""),
                List.of("+442071838750", "Bob", "")));
        check.finish("Twilio");
        assertThat(check.rows()).isEqualTo(2);
    }

    @Test
    void theFirstFailingRuleNamesTheRows() {
        assertThatThrownBy(() -> check(Set.of(), List.of(List.of("phone_number"))).finish("Twilio"))
                .hasMessage("CSV file must have a header row and at least one data row");
        assertThatThrownBy(() -> check(Set.of(), List.of(List.of("number"), List.of("+14155552671"))).finish("Twilio"))
                .hasMessage("Source must contain a 'phone_number' column");
        assertThatThrownBy(() -> check(Set.of(), List.of(List.of("phone_number"), List.of("+14155552671"),
                List.of("4155552671"), List.of("+14155552672"), List.of("bad"))).finish("Twilio"))
                .hasMessageStartingWith("Invalid phone numbers in rows: 3, 5. Phone numbers must be valid for Twilio");
        assertThatThrownBy(() -> check(Set.of(), List.of(List.of("phone_number"), List.of("+14155552671"),
                List.of("+1 415 555 2671"))).finish("Twilio"))
                .hasMessage("Duplicate phone numbers found in rows: 3. Phone numbers in a campaign must be unique.");
        assertThatThrownBy(() -> check(Set.of("first_name", "appointment"), List.of(List.of("phone_number", "first_name"),
                List.of("+14155552671", "Ann"))).finish("Twilio"))
                .hasMessage("Workflow uses template variables that are missing from the source data: 'appointment'."
                        + " Add the missing columns or remove them from the workflow.");
        assertThatThrownBy(() -> check(Set.of("first_name"), List.of(List.of("phone_number", "first_name"),
                List.of("+14155552671", "Ann"), List.of("+14155552672", " "), List.of("+14155552673")))
                .finish("Twilio"))
                .hasMessage("Template variable 'first_name' is empty in rows: 3, 4. All template variables used in the"
                        + " workflow must have values in every row.");
        assertThatThrownBy(() -> check(Set.of(), List.of(List.of("phone_number", "timezone"),
                List.of("+14155552671", "Mars/Base"))).finish("Twilio"))
                .hasMessageStartingWith("Invalid timezone in rows: 2.");
    }

    @Test
    void longListsAreCutAfterFiveRows() {
        assertThat(ContactSourceCheck.list(List.of(2, 3, 4, 5, 6), 9)).isEqualTo("2, 3, 4, 5, 6 and 4 more");
        assertThat(ContactSourceCheck.list(List.of(2, 5), 2)).isEqualTo("2, 5");
    }

    @Test
    void aMillionDistinctNumbersAreTrackedCompactly() {
        ContactSourceCheck.LongSet set = new ContactSourceCheck.LongSet();
        for (long n = 0; n < 1_000_000; n++) {
            assertThat(set.add(14_150_000_000L + n)).isTrue();
        }
        assertThat(set.add(14_150_000_000L)).isFalse();
        assertThat(set.add(14_150_999_999L)).isFalse();
        assertThat(set.add(14_151_000_000L)).isTrue();
    }
}
