package dev.voiceagent.domain.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsageRunFilterTest {

    @Test
    void theReferencesAttributesParse() {
        List<UsageRunFilter> filters = UsageRunFilter.parse(List.of(
                Map.of("attribute", "campaignId", "type", "number", "value", Map.of("value", 7)),
                Map.of("attribute", "callerNumber", "type", "text", "value", Map.of("value", "415555")),
                Map.of("attribute", "dispositionCode", "type", "multiSelect", "value", Map.of("codes", List.of("XFER"))),
                Map.of("attribute", "duration", "type", "numberRange", "value", Map.of("min", 60, "max", 300.5)),
                Map.of("attribute", "callDirection", "type", "radio", "value", Map.of("status", "inbound")),
                Map.of("attribute", "callChannel", "type", "radio", "value", Map.of("status", "web"))));
        assertThat(filters).containsExactly(new UsageRunFilter.Id("campaignId", 7),
                new UsageRunFilter.NumberContains("callerNumber", "415555"),
                new UsageRunFilter.Dispositions(List.of("XFER")), new UsageRunFilter.Duration(60L, 301L),
                new UsageRunFilter.Direction("inbound"), new UsageRunFilter.Channel(UsageRunFilter.WEB_MODES));
    }

    @Test
    void unknownAttributesTypesAndRadioValuesAreIgnored() {
        assertThat(UsageRunFilter.parse(List.of(
                Map.of("attribute", "colour", "type", "text", "value", Map.of("value", "red")),
                Map.of("attribute", "runId", "type", "text", "value", Map.of("value", "1")),
                Map.of("attribute", "callDirection", "type", "radio", "value", Map.of("status", "all"))))).isEmpty();
    }

    @Test
    void aKnownFilterWithAValueOfTheWrongShapeIsRefused() {
        assertThatThrownBy(() -> UsageRunFilter.parse(List.of(
                Map.of("attribute", "runId", "type", "number", "value", Map.of("value", "x")))))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("runId");
        assertThatThrownBy(() -> UsageRunFilter.parse(List.of("not an object")))
                .isInstanceOf(DomainRuleViolation.class).hasMessage("Invalid filters format");
        assertThatThrownBy(() -> UsageRunFilter.parse(List.of(Map.of("attribute", "dispositionCode",
                "type", "multiSelect", "value", Map.of("codes", List.of(1)))))).isInstanceOf(DomainRuleViolation.class);
    }
}
