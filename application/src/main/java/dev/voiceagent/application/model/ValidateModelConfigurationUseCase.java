package dev.voiceagent.application.model;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;

public interface ValidateModelConfigurationUseCase {

    /**
     * The problems of the effective configuration, asked of the providers; empty when every key works. A
     * configuration found valid is not asked again for {@code validity} (on this replica); a problem always is.
     */
    Uni<List<ServiceStatus>> validate(Principal principal, Duration validity);
}
