package dev.voiceagent.domain.usage;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Shares of a whole as percentages with two decimals that add up to exactly 100 (largest remainder: each share is
 * rounded down, and the hundredths left over go to the largest remainders). All zeros when the whole is empty.
 */
public final class Percentages {

    private static final int DECIMALS = 2;

    private Percentages() {
    }

    public static List<BigDecimal> of(List<Long> counts) {
        long total = counts.stream().mapToLong(Long::longValue).sum();
        List<BigDecimal> out = new ArrayList<>();
        if (total <= 0) {
            counts.forEach(c -> out.add(BigDecimal.ZERO.setScale(DECIMALS)));
            return out;
        }
        long units = 100L * 10 * 10; // hundredths of a percent in the whole
        long[] floors = new long[counts.size()];
        long[] remainders = new long[counts.size()];
        long given = 0;
        for (int i = 0; i < counts.size(); i++) {
            long scaled = counts.get(i) * units;
            floors[i] = scaled / total;
            remainders[i] = scaled % total;
            given += floors[i];
        }
        List<Integer> order = IntStream.range(0, counts.size()).boxed()
                .sorted(Comparator.comparingLong((Integer i) -> remainders[i]).reversed().thenComparing(i -> i))
                .toList();
        for (int k = 0; given < units; k++, given++) {
            floors[order.get(k)]++;
        }
        for (long f : floors) {
            out.add(BigDecimal.valueOf(f, DECIMALS).setScale(DECIMALS, RoundingMode.UNNECESSARY));
        }
        return out;
    }
}
