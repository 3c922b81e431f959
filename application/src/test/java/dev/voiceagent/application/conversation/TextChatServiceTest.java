package dev.voiceagent.application.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.conversation.TextChatRepository.Claim;
import dev.voiceagent.application.model.ManagedModels;
import dev.voiceagent.application.model.ModelConfigurations;
import dev.voiceagent.application.model.ResolvedModels;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.tool.CredentialRepository;
import dev.voiceagent.application.tool.ToolHttp;
import dev.voiceagent.application.tool.ToolRepository;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.domain.conversation.TextChatSession;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.model.EffectiveModels;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.workflow.VersionStatus;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.domain.workflow.WorkflowStatus;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A text chat's turns without Quarkus, a database or a model: the model's replies are scripted, the sessions kept in
 * memory with the repository's revision and claim rules. The opening turn greets, a message is answered by the
 * model with what the node tells it, the run's usage counts the tokens, ending completes the run once with its
 * run.completed event, a failed model leaves the session as it was, and a stale revision is a conflict.
 */
class TextChatServiceTest {

    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final Principal ANN = new Principal(2, 1, Principal.Method.API_KEY, "api_key:1");
    private static final WorkflowDefinition DEFINITION = WorkflowDefinition.of(Map.of(
            "nodes", List.of(
                    Map.of("id", "1", "type", "startCall", "data", Map.of("name", "Start", "prompt",
                            "You sell Acme's gadgets.", "greeting", "Hello, this is Acme.")),
                    Map.of("id", "2", "type", "endCall", "data", Map.of("name", "Bye", "prompt", "Say goodbye.")),
                    Map.of("id", "7", "type", "webhook", "data", Map.of("endpoint_url", "https://crm.example/x"))),
            "edges", List.of(Map.of("id", "e1", "source", "1", "target", "2", "data", Map.of("label", "Done",
                    "condition", "The caller is done")))));

    private final Deque<Object> script = new ArrayDeque<>();
    private final List<ModelRequest> asked = new ArrayList<>();
    private final InMemoryChats chats = new InMemoryChats();

    private TextChatService service() {
        WorkflowVersion version = new WorkflowVersion(30L, 1, VersionStatus.PUBLISHED,
                DEFINITION, Map.of(), Map.of(), NOW, NOW);
        Workflow workflow = new Workflow(3L, 1, UUID.randomUUID(), 2L, "Agent",
                WorkflowStatus.ACTIVE, null, NOW, version, null);
        WorkflowRepository workflows = proxy(WorkflowRepository.class, Map.of(
                "find", args -> Uni.createFrom().item(Optional.of(workflow)),
                "findVersion", args -> Uni.createFrom().item(Optional.of(version))));
        WorkflowRunRepository runs = proxy(WorkflowRunRepository.class, Map.of(
                "find", args -> Uni.createFrom().item(Optional.empty())));
        ModelConfigurations configurations = (org, user) -> Uni.createFrom().item(new ResolvedModels(
                ResolvedModels.EMPTY, EffectiveModels.EMPTY, Map.of(), ManagedModels.none()));
        LanguageModel model = (endpoint, request) -> {
            asked.add(request);
            Object next = script.removeFirst();
            return next instanceof RuntimeException failure ? Uni.createFrom().failure(failure)
                    : Uni.createFrom().item((ModelReply) next);
        };
        ObjectStore objects = proxy(ObjectStore.class, Map.of("put", args -> Uni.createFrom().voidItem()));
        ConversationTools tools = new ConversationTools(proxy(ToolRepository.class, Map.of()),
                proxy(CredentialRepository.class, Map.of()), proxy(ToolHttp.class, Map.of()));
        return new TextChatService(chats, workflows, runs, new ConversationModels(configurations, "simulator"), model,
                objects, tools, Clock.fixed(NOW, ZoneOffset.UTC), () -> 42L, CreditGate.open());
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, Map<String, Function<Object[], Object>> methods) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, method, args) -> {
            var body = methods.get(method.getName());
            if (body == null) {
                throw new UnsupportedOperationException(method.getName());
            }
            return body.apply(args);
        });
    }

    private static ModelReply says(String text, long tokens) {
        return new ModelReply(text, List.of(), new TokenUsage(tokens, tokens, 2 * tokens));
    }

    @Test
    void theOpeningTurnGreetsAndAMessageIsAnsweredFromTheNodesPrompt() {
        TextChatService service = service();
        TextChatRecord opened = service.create(ANN, 3, "chat", Map.of(), null).await().indefinitely();
        assertThat(opened.session().turns()).singleElement()
                .satisfies(turn -> assertThat(turn.assistantText()).isEqualTo("Hello, this is Acme."));
        assertThat(asked).as("a greeting needs no model").isEmpty();

        script.add(says("Our gadgets start at ten dollars.", 10));
        TextChatRecord answered = service.send(ANN, 3, opened.run().id(), "How much?", 0).await().indefinitely();
        assertThat(answered.revision()).isEqualTo(1);
        assertThat(answered.session().turns()).hasSize(2).last().satisfies(turn -> {
            assertThat(turn.userText()).isEqualTo("How much?");
            assertThat(turn.assistantText()).isEqualTo("Our gadgets start at ten dollars.");
        });
        assertThat(asked).singleElement().satisfies(request -> {
            assertThat(request.messages().getFirst().content()).contains("You sell Acme's gadgets.");
            assertThat(request.messages().getLast().content()).isEqualTo("How much?");
        });
        assertThat(answered.run().usageInfo()).as("the run counts the model's tokens").isNotEmpty();
        assertThat(chats.events).as("nothing announced while the chat goes on").isEmpty();
    }

    @Test
    void endingCompletesTheRunOnceAndAnnouncesItWithItsWebhookNode() {
        TextChatService service = service();
        TextChatRecord opened = service.create(ANN, 3, "chat", Map.of(), null).await().indefinitely();
        TextChatRecord ended = service.end(ANN, 3, opened.run().id(), null).await().indefinitely();
        assertThat(ended.run().completed()).isTrue();
        assertThat(service.end(ANN, 3, opened.run().id(), null).await().indefinitely().revision())
                .as("ending again changes nothing").isEqualTo(ended.revision());
        assertThat(chats.events).singleElement().isInstanceOfSatisfying(WebhookEvent.RunCompleted.class, e -> {
            assertThat(e.webhookNodeIds()).containsExactly("7");
            assertThat(e.data()).containsEntry("workflow_run_id", opened.run().id());
        });
    }

    @Test
    void aFailedModelLeavesTheSessionAsItWasAndReleasesItsClaim() {
        TextChatService service = service();
        TextChatRecord opened = service.create(ANN, 3, "chat", Map.of(), null).await().indefinitely();
        script.add(new UpstreamServiceException("The language model failed: 503"));
        assertThatThrownBy(() -> service.send(ANN, 3, opened.run().id(), "Hi", null).await().indefinitely())
                .isInstanceOf(UpstreamServiceException.class);
        TextChatRecord after = service.get(ANN, 3, opened.run().id()).await().indefinitely();
        assertThat(after.revision()).isZero();
        assertThat(after.session().turns()).hasSize(1);
        assertThat(after.busy()).as("the claim was released").isFalse();
        script.add(says("Hello again.", 3));
        assertThat(service.send(ANN, 3, opened.run().id(), "Hi", null).await().indefinitely().revision()).isOne();
    }

    @Test
    void aMessageComputedFromAStaleRevisionIsAConflict() {
        TextChatService service = service();
        TextChatRecord opened = service.create(ANN, 3, "chat", Map.of(), null).await().indefinitely();
        script.add(says("One.", 1));
        service.send(ANN, 3, opened.run().id(), "First", 0).await().indefinitely();
        assertThatThrownBy(() -> service.send(ANN, 3, opened.run().id(), "Again", 0).await().indefinitely())
                .isInstanceOf(RevisionConflictException.class);
        assertThat(script).as("the model was not asked for a stale message").isEmpty();
    }

    /** Sessions in memory with the repository's rules: a write needs the revision it read and no foreign claim. */
    private static final class InMemoryChats implements TextChatRepository {

        private final Map<Long, TextChatRecord> records = new HashMap<>();
        private final Map<Long, String> claims = new HashMap<>();
        final List<WebhookEvent> events = new ArrayList<>();
        private long ids = 100;

        @Override
        public Uni<TextChatRecord> create(WorkflowRun run, TextChatSession session, Map<String, Object> checkpoint,
                Instant now) {
            long id = ++ids;
            WorkflowRun stored = new WorkflowRun(id, run.organizationId(), run.workflowId(), run.definitionId(),
                    run.name(), run.mode(), run.callType(), run.state(), run.completed(), null, null, run.usageInfo(),
                    run.costInfo(), run.initialContext(), run.gatheredContext(), run.logs(), run.annotations(),
                    run.campaignId(), run.createdAt());
            TextChatRecord record = new TextChatRecord(stored, session, checkpoint, 0, now, now, false);
            records.put(id, record);
            return Uni.createFrom().item(record);
        }

        @Override
        public Uni<Optional<TextChatRecord>> find(long organizationId, long workflowId, long runId) {
            TextChatRecord r = records.get(runId);
            return Uni.createFrom().item(Optional.ofNullable(r).filter(x -> x.run().organizationId() == organizationId)
                    .map(x -> new TextChatRecord(x.run(), x.session(), x.checkpoint(), x.revision(), x.createdAt(),
                            x.updatedAt(), claims.containsKey(runId))));
        }

        @Override
        public Uni<Claim> claim(long runId, int revision, Duration lease, Instant now) {
            TextChatRecord r = records.get(runId);
            if (r.revision() != revision || claims.containsKey(runId)) {
                return Uni.createFrom().item(new Claim(null, r.revision(), claims.containsKey(runId)));
            }
            String token = "claim-" + runId + "-" + revision;
            claims.put(runId, token);
            return Uni.createFrom().item(new Claim(token, revision, false));
        }

        @Override
        public Uni<Optional<Integer>> save(long runId, int expectedRevision, String token, TextChatSession session,
                Map<String, Object> checkpoint, WorkflowRun run, Instant now, List<WebhookEvent> written) {
            TextChatRecord r = records.get(runId);
            String claim = claims.get(runId);
            if (r.revision() != expectedRevision || (claim != null && !claim.equals(token))) {
                return Uni.createFrom().item(Optional.empty());
            }
            claims.remove(runId);
            boolean wasCompleted = r.run().completed();
            written.stream().filter(e -> !(wasCompleted && e instanceof WebhookEvent.RunCompleted))
                    .forEach(events::add);
            records.put(runId, new TextChatRecord(run, session, checkpoint, r.revision() + 1, r.createdAt(), now,
                    false));
            return Uni.createFrom().item(Optional.of(r.revision() + 1));
        }

        @Override
        public Uni<Void> attachTranscript(long runId, String key) {
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> release(long runId, String token) {
            claims.remove(runId, token);
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<List<IdleChat>> idle(Instant now, int limit) {
            return Uni.createFrom().item(List.of());
        }
    }
}
