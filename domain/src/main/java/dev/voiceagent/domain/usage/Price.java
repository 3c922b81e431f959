package dev.voiceagent.domain.usage;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A price per second of call time, in the currency's major unit (0.002 is a fifth of a cent a second), or none.
 * Charges are integer minor units (cents), rounded half up once per run, so every sum of charges is exact.
 */
public record Price(BigDecimal perSecond) {

    public static final String CURRENCY = "USD";
    /** Minor units per major unit of {@link #CURRENCY}. */
    public static final int MINOR_DIGITS = 2;
    public static final Price NONE = new Price(null);

    public Price {
        if (perSecond != null && perSecond.signum() < 0) {
            throw new DomainRuleViolation("A price per second cannot be negative");
        }
        perSecond = perSecond == null ? null : perSecond.stripTrailingZeros();
    }

    /** A configured price: blank is none; anything else must be a non-negative decimal. */
    public static Price parse(String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        try {
            return new Price(new BigDecimal(text.strip()));
        } catch (NumberFormatException e) {
            throw new DomainRuleViolation("Invalid price per second: " + text);
        }
    }

    /** The organization's own price when it has one, else this (the installation's default). */
    public Price overriddenBy(BigDecimal organizationPrice) {
        return organizationPrice == null ? this : new Price(organizationPrice);
    }

    public boolean priced() {
        return perSecond != null;
    }

    /** What {@code seconds} of call time cost, in minor units; 0 without a price. */
    public long chargeMinor(long seconds) {
        if (perSecond == null || seconds <= 0) {
            return 0;
        }
        return perSecond.multiply(BigDecimal.valueOf(seconds)).movePointRight(MINOR_DIGITS)
                .setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    /** Minor units as an exact amount in the major unit (1234 -> 12.34). */
    public static BigDecimal major(long minor) {
        return BigDecimal.valueOf(minor, MINOR_DIGITS);
    }
}
