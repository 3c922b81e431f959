package dev.voiceagent.adapters.telephony;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class LibPhoneNumberTimeZonesTest {

    private final LibPhoneNumberTimeZones zones = new LibPhoneNumberTimeZones();

    @Test
    void aGeographicNumberHasItsZone() {
        assertThat(zones.zonesOf("+12125550100")).containsExactly(ZoneId.of("America/New_York"));
        assertThat(zones.zonesOf("+61293744000")).containsExactly(ZoneId.of("Australia/Sydney"));
        assertThat(zones.zonesOf("+442079460501")).containsExactly(ZoneId.of("Europe/London"));
    }

    @Test
    void aNumberThatOnlyNamesItsCountryHasAllOfItsZones() {
        assertThat(zones.zonesOf("+79123456789")).contains(ZoneId.of("Europe/Moscow"), ZoneId.of("Asia/Vladivostok"))
                .hasSizeGreaterThan(5);
    }

    @Test
    void anUnknownOrUnparsableNumberHasNone() {
        assertThat(zones.zonesOf("+15550100001")).isEmpty(); // the mapper's Etc/Unknown is left out
        assertThat(zones.zonesOf("sip:bob@example.com")).isEmpty();
        assertThat(zones.zonesOf("+")).isEmpty();
        assertThat(zones.zonesOf(null)).isEmpty();
    }
}
