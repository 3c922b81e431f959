package dev.voiceagent.adapters.telephony;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.telephony.Provider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LibPhoneNumberNormalizerTest {

    private final LibPhoneNumberNormalizer normalizer = new LibPhoneNumberNormalizer();

    @ParameterizedTest(name = "{0} [{1}] via {2} -> {3}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            +1 (415) 555-2671        | null | TWILIO    | +14155552671
            +14155552671             | null | TELNYX    | +14155552671
            0044 20 7183 8750        | null | TWILIO    | +442071838750
            020 7183 8750            | GB   | TWILIO    | +442071838750
            (415) 555-2671           | US   | TWILIO    | +14155552671
            4155552671               | 1    | TWILIO    | +14155552671
            030 1234567              | +49  | VONAGE    | +49301234567
            sip:agent@pbx.example.com| null | TWILIO    | sip:agent@pbx.example.com
            SIP:1001@10.0.0.5:5060   | null | CLOUDONIX | sip:1001@10.0.0.5:5060
            1001                     | null | ARI       | 1001
            PJSIP/1001               | null | ARI       | PJSIP/1001
            +442071838750            | null | ARI       | +442071838750
            +1 555 000 0123          | null | SIMULATOR | +15550000123
            """)
    void normalizes(String input, String country, Provider provider, String expected) {
        assertThat(normalizer.normalize(input, country, provider)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} [{1}] via {2}: {3}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            4155552671               | null | TWILIO    | no country code
            +1 555 000 0123          | null | TWILIO    | not a valid phone number
            +999 1234                | null | TWILIO    | not a valid phone number
            hello                    | US   | TWILIO    | not a valid phone number
            4155552671               | XX   | TWILIO    | Unknown country code
            sip:nobody               | null | TWILIO    | not a valid SIP URI
            1001                     | null | TWILIO    | no country code
            not a dial string        | null | ARI       | extension or dial string
            '   '                    | null | TWILIO    | empty
            """)
    void refuses(String input, String country, Provider provider, String reason) {
        assertThatThrownBy(() -> normalizer.normalize(input, country, provider))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining(reason);
    }
}
