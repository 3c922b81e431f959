package dev.voiceagent.adapters.outbound.ari;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AriIdsTest {

    @Test
    void everyIdOfOursNamesItsRunAndKindAndAsterisksOwnAreNotOurs() {
        assertThat(AriIds.kind(AriIds.call(42))).isEqualTo(AriIds.Kind.CALL);
        assertThat(AriIds.kind(AriIds.media(42))).isEqualTo(AriIds.Kind.MEDIA);
        assertThat(AriIds.kind(AriIds.transfer(42))).isEqualTo(AriIds.Kind.TRANSFER);
        assertThat(AriIds.kind(AriIds.bridge(42))).isEqualTo(AriIds.Kind.BRIDGE);
        assertThat(AriIds.run(AriIds.media(42))).contains(42L);
        assertThat(AriIds.run(AriIds.bridge(7))).contains(7L);
        assertThat(AriIds.call(42)).isNotEqualTo(AriIds.call(42)).startsWith("va-42-");
        assertThat(AriIds.kind("1764410000.12")).isEqualTo(AriIds.Kind.OTHER);
        assertThat(AriIds.kind("va-abc-1")).as("not a run").isEqualTo(AriIds.Kind.OTHER);
        assertThat(AriIds.kind("va-" + "9".repeat(30) + "-x")).as("too long for a run id").isEqualTo(AriIds.Kind.OTHER);
        assertThat(AriIds.run(null)).isEmpty();
    }

    @Test
    void aDestroyedChannelsOutcomeIsCompletedOnceAnsweredElseItsCause() {
        assertThat(AriCalls.outcome("Up", 16)).isEqualTo(CallStatus.COMPLETED);
        assertThat(AriCalls.outcome("Up", 127)).isEqualTo(CallStatus.COMPLETED);
        assertThat(AriCalls.outcome("Ringing", 17)).isEqualTo(CallStatus.BUSY);
        assertThat(AriCalls.outcome("Ringing", 19)).isEqualTo(CallStatus.NO_ANSWER);
        assertThat(AriCalls.outcome("Down", 18)).isEqualTo(CallStatus.NO_ANSWER);
        assertThat(AriCalls.outcome("Ringing", 21)).isEqualTo(CallStatus.FAILED);
        assertThat(AriCalls.outcome("Down", 0)).isEqualTo(CallStatus.FAILED);
    }

    @Test
    void numbersAreDialledAsPjsipUnlessTheyAreDialStrings() {
        assertThat(AriCallGateway.endpoint("2002")).isEqualTo("PJSIP/2002");
        assertThat(AriCallGateway.endpoint("+442071838750")).isEqualTo("PJSIP/+442071838750");
        assertThat(AriCallGateway.endpoint("PJSIP/442071838750@trunk")).isEqualTo("PJSIP/442071838750@trunk");
        assertThat(AriCallGateway.endpoint("SIP/1001")).isEqualTo("SIP/1001");
        assertThat(AriCallGateway.endpoint("Local/100@from-internal")).isEqualTo("Local/100@from-internal");
    }

    @Test
    void theRestBaseAndQueryKeepEveryValueWhole() {
        var ari = new ProviderConfiguration.Ari("http://pbx:8088/", "agents", "p&ss#+", "voiceagent");
        assertThat(AriRest.base(ari)).isEqualTo("http://pbx:8088/ari");
        assertThat(AriRest.base(new ProviderConfiguration.Ari("https://pbx/ari", "a", "b", ""))).isEqualTo(
                "https://pbx/ari");
        assertThat(AriRest.query(AriRest.params("endpoint", "PJSIP/+1555@trunk", "appArgs", "a=1,b=2",
                "transport_data", "v(token=ab)"))).isEqualTo(
                "endpoint=PJSIP%2F%2B1555%40trunk&appArgs=a%3D1%2Cb%3D2&transport_data=v%28token%3Dab%29");
        assertThat(AriRest.authorization(ari)).isEqualTo("Basic " + java.util.Base64.getEncoder()
                .encodeToString("agents:p&ss#+".getBytes()));
        assertThat(AriRest.query(Map.of())).isEmpty();
    }
}
