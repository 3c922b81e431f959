package dev.voiceagent.adapters.rest.campaign;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * {@link Instant#toString()} (ISO-8601, UTC, the fraction in groups of three digits and left out when
 * zero) without the formatter machinery: the campaign list writes about five hundred of them per call.
 * Years outside 0000-9999, which ISO-8601 writes with a sign, are left to {@link Instant#toString()}.
 */
final class IsoInstant {

    private IsoInstant() {
    }

    /** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z in epoch seconds. */
    private static final long FIRST = -62_167_219_200L, BEYOND = 253_402_300_800L;

    static String format(Instant instant) {
        long seconds = instant.getEpochSecond();
        if (seconds < FIRST || seconds >= BEYOND) {
            return instant.toString();
        }
        LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, instant.getNano(), ZoneOffset.UTC);
        int year = t.getYear();
        int nano = t.getNano();
        int fraction = nano == 0 ? 0 : nano % 1_000_000 == 0 ? 3 : nano % 1_000 == 0 ? 6 : 9;
        char[] out = new char[20 + (fraction == 0 ? 0 : fraction + 1)];
        digits(out, 0, year, 4);
        out[4] = '-';
        digits(out, 5, t.getMonthValue(), 2);
        out[7] = '-';
        digits(out, 8, t.getDayOfMonth(), 2);
        out[10] = 'T';
        digits(out, 11, t.getHour(), 2);
        out[13] = ':';
        digits(out, 14, t.getMinute(), 2);
        out[16] = ':';
        digits(out, 17, t.getSecond(), 2);
        int at = 19;
        if (fraction > 0) {
            out[at++] = '.';
            int value = fraction == 3 ? nano / 1_000_000 : fraction == 6 ? nano / 1_000 : nano;
            digits(out, at, value, fraction);
            at += fraction;
        }
        out[at] = 'Z';
        return new String(out);
    }

    private static void digits(char[] out, int from, int value, int width) {
        for (int i = from + width - 1; i >= from; i--) {
            out[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }
}
