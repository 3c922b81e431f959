package dev.voiceagent.domain.tool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransferDestinationsTest {

    private static final Map<String, Object> MAPPING = Map.of("destination_source", "context_mapping",
            "context_mapping", Map.of("rules", List.of(
                    Map.of("context_path", "department", "routes", List.of(
                            Map.of("context_value", "Sales", "destination", "+14155550100"),
                            Map.of("context_value", "support", "destination", "sip:{{initial_context.queue}}@pbx.example"))),
                    Map.of("context_path", "initial_context.region", "routes", List.of(
                            Map.of("context_value", "eu", "destination", "+442071838750")))),
                    "fallback_destination", "{{front_desk}}"));

    @Test
    void aStaticDestinationMayBeATemplateOfTheCallsValues() {
        assertThat(TransferDestinations.resolve(Map.of("destination", " +14155550199 "), Map.of(), Map.of())
                .destination()).isEqualTo("+14155550199");
        assertThat(TransferDestinations.resolve(Map.of("destination", "{{initial_context.transfer_to}}"),
                Map.of("transfer_to", "+14155550111"), Map.of()).destination()).isEqualTo("+14155550111");
        TransferDestinations.Resolution empty = TransferDestinations.resolve(Map.of("destination",
                "{{initial_context.transfer_to}}"), Map.of(), Map.of());
        assertThat(empty.destination()).isNull();
        assertThat(empty.problem()).contains("empty");
    }

    @Test
    void theFirstMatchingRuleWinsGatheredBeforeInitialWithoutCaseThenTheFallback() {
        assertThat(TransferDestinations.resolve(MAPPING, Map.of("department", "support"), Map.of("department",
                "SALES")).destination()).as("gathered first, case ignored").isEqualTo("+14155550100");
        assertThat(TransferDestinations.resolve(MAPPING, Map.of("department", "support", "queue", "tier2"),
                Map.of()).destination()).as("a route's template").isEqualTo("sip:tier2@pbx.example");
        assertThat(TransferDestinations.resolve(MAPPING, Map.of("region", "EU"), Map.of("region", "us"))
                .destination()).as("an explicit initial_context path").isEqualTo("+442071838750");
        assertThat(TransferDestinations.resolve(MAPPING, Map.of("front_desk", "+14155550122"), Map.of("department",
                "billing")).destination()).as("the fallback").isEqualTo("+14155550122");
        TransferDestinations.Resolution none = TransferDestinations.resolve(Map.of("destination_source",
                "context_mapping", "context_mapping", Map.of("rules", List.of(Map.of("context_path", "department",
                        "routes", List.of(Map.of("context_value", "sales", "destination", "+1415")))))), Map.of(),
                Map.of("department", "billing"));
        assertThat(none.destination()).isNull();
        assertThat(none.problem()).isEqualTo("No destination mapping matched context paths 'department'");
    }

    @Test
    void theLegacySingleRuleShapeAndExtractedVariablesAreRead() {
        Map<String, Object> legacy = Map.of("destination_source", "context_mapping", "context_mapping", Map.of(
                "context_path", "tier", "routes", List.of(Map.of("context_value", "gold", "destination",
                        "+14155550133"))));
        assertThat(TransferDestinations.resolve(legacy, Map.of(), Map.of("extracted_variables", Map.of("tier",
                "Gold"))).destination()).isEqualTo("+14155550133");
    }
}
