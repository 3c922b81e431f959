package dev.voiceagent.adapters.telephony.plivo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.telephony.CarrierNumbers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Plivo's V3 and Vobiz's V3/V2 webhook signatures. The expected values were computed with the reference's Python
 * port of Plivo's SDK ({@code validate_v3_signature}: construct_post_url, then "." and the nonce).
 */
class PlivoSignatureTest {

    private static final String HANGUP = "https://voice.example.com/api/v1/telephony/plivo/hangup-callback/42";
    private static final Map<String, List<String>> PARAMS = Map.of("CallUUID", List.of("c-1"), "CallStatus",
            List.of("completed"), "Duration", List.of("12"), "RequestUUID", List.of("r-1"));

    @Test
    void plivosV3CoversTheUrlTheSortedParametersAndTheNonce() {
        assertThat(PlivoSignature.plivo("MyAuthToken", HANGUP, PARAMS, "12345678901234567890"))
                .isEqualTo("bpOZvIFf6IH3Q9F29z+DBQrnuAivLbL6tjneR9TRui4=");
        assertThat(PlivoSignature.plivo("MyAuthToken", "https://voice.example.com/a/b", Map.of(), "n2"))
                .isEqualTo("CuAqJR1OGLXE+1b8pQDdj+7wspHf03aN8Sd9q/fZdFU=");
    }

    @Test
    void aQueryIsSignedSortedAndDecodedBeforeTheBody() {
        String url = "https://voice.example.com/api/v1/telephony/plivo/transfer/7?to=%2B442071838750&timeout=30&sig=ab";
        assertThat(PlivoSignature.plivoPayload(url, Map.of("CallUUID", List.of("c-1")))).isEqualTo(
                "https://voice.example.com/api/v1/telephony/plivo/transfer/7?sig=ab&timeout=30&to=+442071838750."
                        + "CallUUIDc-1");
        assertThat(PlivoSignature.plivo("MyAuthToken", url, Map.of("CallUUID", List.of("c-1")), "n1"))
                .isEqualTo("Q6aotiPH0RczQRIvMn0mmjs4c/PFhKVVRKRGCx9RATY=");
    }

    @Test
    void oneOfSeveralSignaturesMustMatchAndAnythingMissingFailsClosed() {
        String good = PlivoSignature.plivo("tok", HANGUP, PARAMS, "n");
        assertThat(PlivoSignature.validPlivo("tok", HANGUP, PARAMS, "other=, " + good, "n")).isTrue();
        assertThat(PlivoSignature.validPlivo("tok", HANGUP, PARAMS, good, "n2")).as("another nonce").isFalse();
        assertThat(PlivoSignature.validPlivo("tok2", HANGUP, PARAMS, good, "n")).as("another token").isFalse();
        assertThat(PlivoSignature.validPlivo("tok", HANGUP, Map.of("CallUUID", List.of("c-2")), good, "n"))
                .as("another body").isFalse();
        assertThat(PlivoSignature.validPlivo("tok", HANGUP, PARAMS, good, null)).isFalse();
        assertThat(PlivoSignature.validPlivo(null, HANGUP, PARAMS, good, "n")).isFalse();
        assertThat(PlivoSignature.validPlivo("tok", HANGUP, PARAMS, null, "n")).isFalse();
    }

    @Test
    void vobizSignsTheUrlWithoutItsQueryAndTheNonce() {
        String v3 = PlivoSignature.vobiz("tok", HANGUP + "?x=1", "n", true);
        assertThat(v3).isEqualTo(PlivoSignature.vobiz("tok", HANGUP, "n", true));
        assertThat(PlivoSignature.vobiz("tok", HANGUP, "n", false)).isNotEqualTo(v3);
        assertThat(PlivoSignature.validVobiz("tok", HANGUP, v3, "n", true)).isTrue();
        assertThat(PlivoSignature.validVobiz("tok", HANGUP, v3, "n", false)).as("a V3 signature is no V2").isFalse();
        assertThat(PlivoSignature.validVobiz("tok", HANGUP, v3, "m", true)).isFalse();
    }

    @Test
    void e164DigitsGetTheirPlusAndOtherAddressesStayAsTheyAre() {
        assertThat(CarrierNumbers.plus("14155552671")).isEqualTo("+14155552671");
        assertThat(CarrierNumbers.plus("+14155552671")).isEqualTo("+14155552671");
        assertThat(CarrierNumbers.plus("02271264296")).as("national").isEqualTo("02271264296");
        assertThat(CarrierNumbers.plus("sip:alice@example.com")).isEqualTo("sip:alice@example.com");
        assertThat(PlivoFamilyGateway.dial("+442071838750", 25).document()).contains(
                "<Dial timeout=\"25\"><Number>442071838750</Number></Dial>");
        assertThat(PlivoFamilyGateway.dial("sip:desk@pbx.example.com", 30).document())
                .contains("<User>sip:desk@pbx.example.com</User>");
    }
}
