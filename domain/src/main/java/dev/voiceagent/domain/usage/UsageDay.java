package dev.voiceagent.domain.usage;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One calendar day of metered usage in the organization's time zone. */
public record UsageDay(LocalDate date, long seconds, long chargeMinor, long calls) {

    public static final int MAX_DAYS = 30;

    /** Minutes with two decimals (half up). */
    public BigDecimal minutes() {
        return minutes(seconds);
    }

    public static BigDecimal minutes(long seconds) {
        return BigDecimal.valueOf(seconds).divide(BigDecimal.valueOf(60), 2, RoundingMode.HALF_UP);
    }

    /** The last {@code days} days up to {@code today}, oldest first, each with its usage or zeros. */
    public static List<UsageDay> lastDays(LocalDate today, int days, Map<LocalDate, UsageDay> used) {
        List<UsageDay> out = new ArrayList<>();
        for (LocalDate d = today.minusDays(days - 1L); !d.isAfter(today); d = d.plusDays(1)) {
            out.add(used.getOrDefault(d, new UsageDay(d, 0, 0, 0)));
        }
        return out;
    }
}
