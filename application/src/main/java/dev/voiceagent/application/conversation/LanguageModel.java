package dev.voiceagent.application.conversation;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Out-port: a language model, as the organization's configuration names it. Messages and functions in; text
 * and/or function calls out, with the tokens used. A provider that fails or refuses is an
 * {@link UpstreamServiceException} ("The language model failed: ..."); a
 * provider that cannot hold a conversation here is a {@link DomainRuleViolation}.
 */
public interface LanguageModel {

    Uni<ModelReply> complete(ModelEndpoint endpoint, ModelRequest request);

    /**
     * The answer as it is written: {@link ModelDelta.Text} pieces, then one {@link ModelDelta.Done}. Cancelling the
     * subscription stops the provider's stream. A provider that cannot stream answers in one piece (this default).
     */
    default Multi<ModelDelta> stream(ModelEndpoint endpoint, ModelRequest request) {
        return complete(endpoint, request).onItem().transformToMulti(reply -> reply.text() == null
                || reply.text().isBlank() ? Multi.createFrom().items(new ModelDelta.Done(reply))
                : Multi.createFrom().items(new ModelDelta.Text(reply.text()), new ModelDelta.Done(reply)));
    }
}
