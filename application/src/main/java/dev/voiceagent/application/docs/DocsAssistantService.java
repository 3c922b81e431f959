package dev.voiceagent.application.docs;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.model.ModelConfigurations;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The documentation assistant: a question answered from this API's own documentation (README, the OpenAPI
 * operations, the decision records), indexed with the knowledge base's full-text engine. With a language model
 * in the organization's configuration it answers grounded on the best passages and cites them ([1], [2]);
 * without one it returns the passages with their sources.
 */
@Singleton
public class DocsAssistantService implements DocsAssistantUseCase {

    public static final int PASSAGES = 5;
    public static final int MAX_MESSAGE = 2_000;
    public static final int MAX_HISTORY = 20;

    private final DocsIndex index;
    private final ModelConfigurations models;
    private final LanguageModel languageModel;

    public DocsAssistantService(DocsIndex index, ModelConfigurations models, LanguageModel languageModel) {
        this.index = index;
        this.models = models;
        this.languageModel = languageModel;
    }

    /** Indexes the passages (a no-op when this version is already indexed). */
    public Uni<Boolean> index(List<DocsIndex.Passage> passages) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (DocsIndex.Passage p : passages) {
                sha.update((p.source() + "\u0000" + p.title() + "\u0000" + p.text() + "\u0001")
                        .getBytes(StandardCharsets.UTF_8));
            }
            return index.replaceAll(HexFormat.of().formatHex(sha.digest()), passages);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Uni<Answer> chat(Principal principal, String message, List<Turn> history) {
        if (message == null || message.isBlank() || message.length() > MAX_MESSAGE) {
            throw new DomainRuleViolation("message must be 1 to " + MAX_MESSAGE + " characters");
        }
        List<Turn> turns = history == null ? List.of() : history;
        if (turns.size() > MAX_HISTORY) {
            throw new DomainRuleViolation("history holds at most " + MAX_HISTORY + " turns");
        }
        for (Turn t : turns) {
            if (!"user".equals(t.role()) && !"assistant".equals(t.role())) {
                throw new DomainRuleViolation("a history turn's role is user or assistant");
            }
        }
        return index.search(message, PASSAGES).chain(found -> {
            List<Source> sources = new ArrayList<>();
            for (int i = 0; i < found.size(); i++) {
                DocsIndex.Found f = found.get(i);
                sources.add(new Source(i + 1, f.passage().source(), f.passage().title(), excerpt(f.passage().text()),
                        Math.round(f.score() * 1e4) / 1e4));
            }
            return models.resolve(principal.organizationId(), principal.userId()).chain(resolved -> {
                var endpoint = resolved.endpoint(ModelService.LLM);
                if (endpoint.isEmpty()) {
                    String answer = found.isEmpty() ? "Nothing in the documentation matches that question."
                            : "The documentation passages that match best are listed in sources (no language model is"
                                    + " configured to write an answer).";
                    return Uni.createFrom().item(new Answer(answer, sources, "passages"));
                }
                List<ChatMessage> messages = new ArrayList<>();
                messages.add(ChatMessage.system(prompt(found)));
                for (Turn t : turns) {
                    messages.add("user".equals(t.role()) ? ChatMessage.user(t.content())
                            : ChatMessage.assistant(t.content(), List.of()));
                }
                messages.add(ChatMessage.user(message.strip()));
                return languageModel.complete(endpoint.get(), new ModelRequest(messages, List.of()))
                        .map(reply -> new Answer(reply.text() == null ? "" : reply.text().strip(), sources, "model"));
            });
        });
    }

    static String prompt(List<DocsIndex.Found> found) {
        StringBuilder p = new StringBuilder("You answer questions about this voice-agent platform's REST API (every"
                + " path under /api/v1) using only the documentation passages below. Cite the passages you use as"
                + " [1], [2], ... If they do not answer the question, say so and do not guess.\n\n");
        for (int i = 0; i < found.size(); i++) {
            DocsIndex.Passage passage = found.get(i).passage();
            p.append('[').append(i + 1).append("] ").append(passage.title()).append(" (").append(passage.source())
                    .append(")\n").append(passage.text().strip()).append("\n\n");
        }
        if (found.isEmpty()) {
            p.append("(no passage matched the question)\n");
        }
        return p.toString();
    }

    private static String excerpt(String text) {
        String t = text.strip().replaceAll("\\s+", " ");
        return t.length() <= 400 ? t : t.substring(0, 397) + "...";
    }
}
