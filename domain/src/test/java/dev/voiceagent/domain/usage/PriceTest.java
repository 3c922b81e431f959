package dev.voiceagent.domain.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.math.BigDecimal;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PriceTest {

    @Test
    void aChargeIsWholeCentsRoundedHalfUpOncePerRun() {
        Price price = Price.parse("0.002"); // a fifth of a cent a second
        assertThat(price.chargeMinor(0)).isZero();
        assertThat(price.chargeMinor(2)).isZero(); // 0.4 cent
        assertThat(price.chargeMinor(3)).isEqualTo(1); // 0.6 cent
        assertThat(price.chargeMinor(5)).isEqualTo(1); // 1.0 cent
        assertThat(price.chargeMinor(7)).isEqualTo(1); // 1.4 cents
        assertThat(price.chargeMinor(8)).isEqualTo(2); // 1.6 cents
        assertThat(price.chargeMinor(600)).isEqualTo(120);
        assertThat(Price.parse("0.0025").chargeMinor(2)).isEqualTo(1); // exactly half a cent rounds up
    }

    @Test
    void amountsAreExactDecimalsWhereFloatingPointWouldDrift() {
        Price price = Price.parse("0.001");
        long cents = LongStream.rangeClosed(1, 1000).map(i -> price.chargeMinor(10)).sum(); // 1000 runs of 1 cent
        assertThat(Price.major(cents)).isEqualByComparingTo("10.00");
        assertThat(Price.major(1)).isEqualTo(new BigDecimal("0.01"));
        double drifting = 0;
        for (int i = 0; i < 1000; i++) {
            drifting += 0.01;
        }
        assertThat(drifting).isNotEqualTo(10.0); // why money is never a double here
    }

    @Test
    void noPriceChargesNothingAndAnOrganizationsPriceWins() {
        assertThat(Price.parse("").priced()).isFalse();
        assertThat(Price.parse(null).chargeMinor(1000)).isZero();
        Price installation = Price.parse("0.002");
        assertThat(installation.overriddenBy(new BigDecimal("0.01")).chargeMinor(100)).isEqualTo(100);
        assertThat(installation.overriddenBy(null)).isEqualTo(installation);
        assertThat(Price.NONE.overriddenBy(new BigDecimal("0.01")).priced()).isTrue();
    }

    @Test
    void aPriceMustBeANonNegativeDecimal() {
        assertThatThrownBy(() -> Price.parse("cheap")).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> Price.parse("-0.01")).isInstanceOf(DomainRuleViolation.class);
    }
}
