package dev.voiceagent.domain.tool;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * The calculator tool: arithmetic on decimal numbers, nothing else (no names, no code). Operators + - * / %
 * and ^ (a whole exponent up to 1000), parentheses, unary minus, and the functions sqrt, abs, round, floor and
 * ceil. Exact decimal arithmetic (34 significant digits), so 0.1 + 0.2 is 0.3.
 */
public final class Calculator {

    public static final int MAX_LENGTH = 500;
    private static final MathContext MATH = MathContext.DECIMAL128;

    private final String text;
    private int at;
    private int depth;

    private Calculator(String text) {
        this.text = text;
    }

    /** The value of {@code expression}, its trailing zeros dropped; a malformed one is a DomainRuleViolation. */
    public static BigDecimal evaluate(String expression) {
        if (expression == null || expression.isBlank()) {
            throw new DomainRuleViolation("expression is required");
        }
        if (expression.length() > MAX_LENGTH) {
            throw new DomainRuleViolation("expression must be at most " + MAX_LENGTH + " characters");
        }
        Calculator c = new Calculator(expression);
        BigDecimal value = c.sum();
        c.skipSpaces();
        if (c.at < c.text.length()) {
            throw new DomainRuleViolation("Unexpected '" + c.text.charAt(c.at) + "' at position " + (c.at + 1));
        }
        BigDecimal plain = value.stripTrailingZeros();
        return plain.scale() < 0 ? plain.setScale(0) : plain;
    }

    private BigDecimal sum() {
        BigDecimal value = product();
        while (true) {
            if (eat('+')) {
                value = value.add(product(), MATH);
            } else if (eat('-')) {
                value = value.subtract(product(), MATH);
            } else {
                return value;
            }
        }
    }

    private BigDecimal product() {
        BigDecimal value = power();
        while (true) {
            if (eat('*')) {
                value = value.multiply(power(), MATH);
            } else if (eat('/')) {
                BigDecimal divisor = power();
                if (divisor.signum() == 0) {
                    throw new DomainRuleViolation("Division by zero");
                }
                value = value.divide(divisor, MATH);
            } else if (eat('%')) {
                BigDecimal divisor = power();
                if (divisor.signum() == 0) {
                    throw new DomainRuleViolation("Division by zero");
                }
                value = value.remainder(divisor, MATH);
            } else {
                return value;
            }
        }
    }

    private BigDecimal power() {
        BigDecimal base = unary();
        if (eat('^')) {
            BigDecimal exponent = power(); // right associative
            int n;
            try {
                n = exponent.intValueExact();
            } catch (ArithmeticException e) {
                throw new DomainRuleViolation("An exponent must be a whole number");
            }
            if (Math.abs(n) > 1000) {
                throw new DomainRuleViolation("An exponent must be between -1000 and 1000");
            }
            if (n < 0 && base.signum() == 0) {
                throw new DomainRuleViolation("Division by zero");
            }
            return base.pow(n, MATH);
        }
        return base;
    }

    private BigDecimal unary() {
        if (eat('-')) {
            return unary().negate();
        }
        if (eat('+')) {
            return unary();
        }
        return atom();
    }

    private BigDecimal atom() {
        skipSpaces();
        if (++depth > 100) {
            throw new DomainRuleViolation("The expression is nested too deeply");
        }
        try {
            if (eat('(')) {
                BigDecimal value = sum();
                expect(')');
                return value;
            }
            int start = at;
            while (at < text.length() && Character.isLetter(text.charAt(at))) {
                at++;
            }
            if (at > start) {
                String name = text.substring(start, at).toLowerCase(Locale.ROOT);
                expect('(');
                BigDecimal arg = sum();
                expect(')');
                return function(name, arg);
            }
            while (at < text.length() && (Character.isDigit(text.charAt(at)) || text.charAt(at) == '.')) {
                at++;
            }
            if (at == start) {
                throw new DomainRuleViolation(at < text.length() ? "Unexpected '" + text.charAt(at) + "' at position "
                        + (at + 1) : "The expression ends too soon");
            }
            try {
                return new BigDecimal(text.substring(start, at));
            } catch (NumberFormatException e) {
                throw new DomainRuleViolation("Not a number: " + text.substring(start, at));
            }
        } finally {
            depth--;
        }
    }

    private static BigDecimal function(String name, BigDecimal arg) {
        return switch (name) {
            case "sqrt" -> {
                if (arg.signum() < 0) {
                    throw new DomainRuleViolation("sqrt of a negative number");
                }
                yield arg.sqrt(MATH);
            }
            case "abs" -> arg.abs();
            case "round" -> arg.setScale(0, RoundingMode.HALF_UP);
            case "floor" -> arg.setScale(0, RoundingMode.FLOOR);
            case "ceil" -> arg.setScale(0, RoundingMode.CEILING);
            default -> throw new DomainRuleViolation("Unknown function " + name
                    + " (sqrt, abs, round, floor and ceil are known)");
        };
    }

    private boolean eat(char c) {
        skipSpaces();
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!eat(c)) {
            throw new DomainRuleViolation("Expected '" + c + "' at position " + (at + 1));
        }
    }

    private void skipSpaces() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }
}
