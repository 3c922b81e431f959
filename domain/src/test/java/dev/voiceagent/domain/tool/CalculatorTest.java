package dev.voiceagent.domain.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import org.junit.jupiter.api.Test;

class CalculatorTest {

    private static String eval(String expression) {
        return Calculator.evaluate(expression).toPlainString();
    }

    @Test
    void arithmeticFollowsPrecedenceAndIsExactInDecimal() {
        assertThat(eval("1 + 2 * 3")).isEqualTo("7");
        assertThat(eval("(1 + 2) * 3")).isEqualTo("9");
        assertThat(eval("0.1 + 0.2")).isEqualTo("0.3");
        assertThat(eval("2 ^ 3 ^ 2")).isEqualTo("512");
        assertThat(eval("-2 ^ 2")).isEqualTo("4");
        assertThat(eval("10 % 4 + 7 / 2")).isEqualTo("5.5");
        assertThat(eval("2 ^ -2")).isEqualTo("0.25");
        assertThat(eval("1 / 3")).startsWith("0.3333333333");
        assertThat(eval("sqrt(16) + abs(-2) + round(2.5) + floor(2.7) + ceil(2.1)")).isEqualTo("14");
        assertThat(eval("1e3".replace("e3", "000"))).isEqualTo("1000");
    }

    @Test
    void anythingButArithmeticIsRefusedWithWhereItWentWrong() {
        assertThatThrownBy(() -> eval("1 / 0")).isInstanceOf(DomainRuleViolation.class).hasMessage("Division by zero");
        assertThatThrownBy(() -> eval("2 +")).hasMessage("The expression ends too soon");
        assertThatThrownBy(() -> eval("2 + x")).hasMessageContaining("Expected '('");
        assertThatThrownBy(() -> eval("System.exit(0)")).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> eval("exec(1)")).hasMessageContaining("Unknown function exec");
        assertThatThrownBy(() -> eval("(1 + 2")).hasMessageContaining("Expected ')'");
        assertThatThrownBy(() -> eval("1 2")).hasMessageContaining("Unexpected '2' at position 3");
        assertThatThrownBy(() -> eval("2 ^ 1.5")).hasMessageContaining("whole number");
        assertThatThrownBy(() -> eval("10 ^ 100000")).hasMessageContaining("between -1000 and 1000");
        assertThatThrownBy(() -> eval("(".repeat(200) + "1" + ")".repeat(200))).hasMessageContaining("nested too deeply");
        assertThatThrownBy(() -> eval("1+".repeat(300) + "1")).hasMessageContaining("at most 500");
        assertThatThrownBy(() -> eval(" ")).hasMessage("expression is required");
        assertThatThrownBy(() -> eval("1..2")).hasMessageContaining("Not a number");
    }
}
