package dev.voiceagent.adapters.rest.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IsoInstantTest {

    @Test
    void writesWhatInstantToStringWrites() {
        for (String text : new String[] {"2026-11-23T10:15:30Z", "2026-11-23T10:15:30.100Z", "2026-11-23T10:15:30.120Z",
                "2026-11-23T10:15:30.123456Z", "2026-11-23T10:15:30.000001Z", "2026-11-23T10:15:30.123456789Z",
                "2026-11-23T10:15:30.000000001Z", "1970-01-01T00:00:00Z", "0000-01-01T00:00:00Z",
                "9999-12-31T23:59:59.999999999Z", "2024-02-29T23:59:59.5Z", "1969-12-31T23:59:59.999Z"}) {
            Instant instant = Instant.parse(text);
            assertThat(IsoInstant.format(instant)).as(text).isEqualTo(instant.toString());
        }
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 200_000; i++) {
            long seconds = random.nextLong(-62_167_219_200L, 253_402_300_800L); // years 0000-9999
            int nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant instant = Instant.ofEpochSecond(seconds, nanos);
            assertThat(IsoInstant.format(instant)).isEqualTo(instant.toString());
        }
    }

    @Test
    void yearsBeyondFourDigitsAreLeftToTheJdk() {
        for (Instant instant : new Instant[] {Instant.MAX, Instant.MIN, Instant.parse("+10000-01-01T00:00:00Z"),
                Instant.parse("-0001-12-31T23:59:59Z")}) {
            assertThat(IsoInstant.format(instant)).isEqualTo(instant.toString());
        }
    }
}
