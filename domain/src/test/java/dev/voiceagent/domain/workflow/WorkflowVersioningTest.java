package dev.voiceagent.domain.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class WorkflowVersioningTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private final WorkflowDefinition v1 = WorkflowDefinition.of(Definitions.valid());
    private final WorkflowDefinition v2 = WorkflowDefinition.of(Definitions.valid(d -> d.put("viewport", Map.of("zoom", 2))));

    private Workflow created() {
        return Workflow.create(1, 2, "  Reminder ", v1, null, Map.of("first_name", "Ann"), T0, UUID.randomUUID());
    }

    @Test
    void creatingPublishesVersionOne() {
        Workflow workflow = created();
        assertThat(workflow.name()).isEqualTo("Reminder");
        assertThat(workflow.published().versionNumber()).isEqualTo(1);
        assertThat(workflow.published().status()).isEqualTo(VersionStatus.PUBLISHED);
        assertThat(workflow.published().publishedAt()).isEqualTo(T0);
        assertThat(workflow.draftVersion()).isEmpty();
        assertThat(workflow.editable()).isSameAs(workflow.published());
    }

    @Test
    void editsGoToOneDraftThatIsUpdatedInPlace() {
        Workflow edited = created().withDraftContent(v2, null, Map.of("first_name", "Ann"), 2, T0.plusSeconds(1));
        assertThat(edited.draft().versionNumber()).isEqualTo(2);
        assertThat(edited.published().definition()).isEqualTo(v1);
        WorkflowDefinition v3 = WorkflowDefinition.of(Definitions.valid(d -> d.put("viewport", Map.of("zoom", 3))));
        Workflow again = edited.withDraftContent(v3, Map.of("max_call_duration", 300), null, 7, T0.plusSeconds(2));
        assertThat(again.draft().versionNumber()).isEqualTo(2);
        assertThat(again.draft().createdAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(again.draft().definition()).isEqualTo(v3);
    }

    @Test
    void unchangedContentCreatesNoDraft() {
        Workflow workflow = created();
        assertThat(workflow.withDraftContent(v1, null, Map.of("first_name", "Ann"), 2, T0)).isSameAs(workflow);
    }

    @Test
    void publishingMovesTheDraftAndThereIsNothingLeftToPublish() {
        Workflow published = created().withDraftContent(v2, null, null, 2, T0).publishDraft(T0.plusSeconds(5));
        assertThat(published.published().versionNumber()).isEqualTo(2);
        assertThat(published.published().publishedAt()).isEqualTo(T0.plusSeconds(5));
        assertThat(published.draft()).isNull();
        assertThatThrownBy(() -> published.publishDraft(T0)).isInstanceOf(DomainRuleViolation.class)
                .hasMessage("No draft to publish");
    }

    @Test
    void createDraftCopiesThePublishedVersionOnce() {
        Workflow withDraft = created().withDraftFromPublished(2, T0);
        assertThat(withDraft.draft().definition()).isEqualTo(v1);
        assertThat(withDraft.draft().templateContextVariables()).isEqualTo(Map.of("first_name", "Ann"));
        assertThat(withDraft.withDraftFromPublished(3, T0)).isSameAs(withDraft);
    }

    @Test
    void builtInTemplatesAndTheGeneratedStarterAreValid() {
        assertThat(StarterWorkflows.templates()).hasSizeGreaterThanOrEqualTo(3);
        for (WorkflowTemplate template : StarterWorkflows.templates()) {
            assertThat(WorkflowValidator.validate(template.definition(), Set.of())).as(template.name()).isEmpty();
        }
        WorkflowDefinition starter = StarterWorkflows.fromDescription("outbound", "dental reminders", "confirm the visit");
        assertThat(WorkflowValidator.validate(starter, Set.of())).isEmpty();
        assertThat(starter.nodes()).extracting(WorkflowDefinition.Node::type).containsExactly("startCall", "agentNode", "endCall");
        assertThat(starter.toString()).contains("dental reminders").contains("confirm the visit");
        assertThat(TemplateVariables.requiredBy(StarterWorkflows.template(1).orElseThrow().definition()))
                .containsExactly("appointment_time", "company_name", "first_name");
    }
}
