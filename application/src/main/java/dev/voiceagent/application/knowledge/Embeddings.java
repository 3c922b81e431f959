package dev.voiceagent.application.knowledge;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.UpstreamServiceException;
import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * Out-port: embeddings of texts with the organization's embeddings model, in the order given (sent in batches). A
 * provider that fails is an {@link UpstreamServiceException}.
 */
public interface Embeddings {

    Uni<List<float[]>> embed(ModelEndpoint endpoint, List<String> texts);
}
