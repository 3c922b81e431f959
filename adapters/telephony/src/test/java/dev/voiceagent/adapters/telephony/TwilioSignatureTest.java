package dev.voiceagent.adapters.telephony;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.telephony.twilio.TwilioSignature;
import dev.voiceagent.adapters.telephony.twilio.TwilioStatuses;
import dev.voiceagent.domain.telephony.CallStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TwilioSignatureTest {

    /** Twilio's published example (auth token 12345). */
    private static final String URL = "https://mycompany.com/myapp.php?foo=1&bar=2";
    private static final String SIGNATURE = "0/KCTR6DLpKmkAf8muzZqo1nDgQ=";

    private static Map<String, List<String>> params() {
        return new LinkedHashMap<>(FormBody.parse(
                "To=%2B18005551212&From=%2B12349013030&Digits=1234&Caller=%2B12349013030&CallSid=CA1234567890ABCDE"));
    }

    @Test
    void thePublishedExampleVerifies() {
        assertThat(TwilioSignature.compute("12345", URL, params())).isEqualTo(SIGNATURE);
        assertThat(TwilioSignature.valid("12345", URL, params(), SIGNATURE)).isTrue();
    }

    @Test
    void anyTamperingFails() {
        Map<String, List<String>> changed = params();
        changed.put("Digits", List.of("1235"));
        assertThat(TwilioSignature.valid("12345", URL, changed, SIGNATURE)).isFalse();
        assertThat(TwilioSignature.valid("12345", URL.replace("foo=1", "foo=2"), params(), SIGNATURE)).isFalse();
        assertThat(TwilioSignature.valid("54321", URL, params(), SIGNATURE)).isFalse();
        assertThat(TwilioSignature.valid("12345", URL, params(), null)).isFalse();
        assertThat(TwilioSignature.valid(null, URL, params(), SIGNATURE)).isFalse();
        assertThat(TwilioSignature.valid("", URL, params(), SIGNATURE)).isFalse();
    }

    @Test
    void statusesMapToOursAndMachinesAreVoicemail() {
        assertThat(TwilioStatuses.map("completed", null)).contains(CallStatus.COMPLETED);
        assertThat(TwilioStatuses.map("completed", "machine_end_beep")).contains(CallStatus.VOICEMAIL);
        assertThat(TwilioStatuses.map("no-answer", null)).contains(CallStatus.NO_ANSWER);
        assertThat(TwilioStatuses.map("queued", null)).contains(CallStatus.INITIATED);
        assertThat(TwilioStatuses.map("teleported", null)).isEmpty();
    }
}
