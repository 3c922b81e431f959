package dev.voiceagent.domain.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class PercentagesTest {

    private static BigDecimal sum(List<BigDecimal> values) {
        return values.stream().reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    @Test
    void thirdsAddUpToExactlyAHundred() {
        List<BigDecimal> shares = Percentages.of(List.of(1L, 1L, 1L));
        assertThat(shares).containsExactly(new BigDecimal("33.34"), new BigDecimal("33.33"), new BigDecimal("33.33"));
        assertThat(sum(shares)).isEqualByComparingTo("100");
    }

    @Test
    void roundingEachShareAloneWouldNotAddUp() {
        List<Long> counts = List.of(7L, 7L, 7L, 7L, 7L, 7L); // 16.666...% each: rounded alone, 6 x 16.67 = 100.02
        List<BigDecimal> shares = Percentages.of(counts);
        assertThat(sum(shares)).isEqualByComparingTo("100");
        assertThat(shares).allSatisfy(s -> assertThat(s).isBetween(new BigDecimal("16.66"), new BigDecimal("16.67")));
    }

    @Test
    void largeUnevenCountsStillAddUp() {
        List<BigDecimal> shares = Percentages.of(List.of(999_983L, 11L, 3L, 2L, 1L));
        assertThat(sum(shares)).isEqualByComparingTo("100");
        assertThat(shares.getFirst()).isEqualByComparingTo("100.00"); // 99.9983 -> the leftover hundredth goes here
    }

    @Test
    void nothingCountedIsAllZeros() {
        assertThat(Percentages.of(List.of(0L, 0L))).containsExactly(new BigDecimal("0.00"), new BigDecimal("0.00"));
        assertThat(Percentages.of(List.of())).isEmpty();
    }
}
