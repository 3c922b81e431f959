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
 * and/or function calls out, with the tokens used. A provider that fails before its answer (a 5xx, a 429, a connection
 * refused or reset, no first byte in time) is asked again within the installation's budget; one that still fails, or
 * refuses, is a {@link ModelUnavailableException} ("The language model failed: ..."), an
 * {@link UpstreamServiceException}; a provider that cannot hold a conversation here is a {@link DomainRuleViolation}.
 */
public interface LanguageModel {

    Uni<ModelReply> complete(ModelEndpoint endpoint, ModelRequest request);

    /**
     * The answer as it is written: {@link ModelDelta.Text} pieces, then one {@link ModelDelta.Done}. Before the first
     * piece, a {@link ModelDelta.Retrying} for each retry of a provider that failed (the same turn is asked again after
     * its wait). A stream that breaks after some of the answer came is not asked again: it fails with a
     * {@link ModelStreamBrokenException}; one that never answered with a {@link ModelUnavailableException}. Cancelling
     * the subscription stops the provider's stream. A provider that cannot stream answers in one piece (this default).
     */
    default Multi<ModelDelta> stream(ModelEndpoint endpoint, ModelRequest request) {
        return complete(endpoint, request).onItem().transformToMulti(reply -> reply.text() == null
                || reply.text().isBlank() ? Multi.createFrom().items(new ModelDelta.Done(reply))
                : Multi.createFrom().items(new ModelDelta.Text(reply.text()), new ModelDelta.Done(reply)));
    }
}
