package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.Trunk;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;

/** Out-port: trunks of a configuration. Deleting one that numbers use is a ConflictException. */
public interface TrunkRepository {

    Uni<List<TrunkView>> list(long organizationId, long configurationId);

    Uni<Optional<TrunkView>> find(long organizationId, long configurationId, long trunkId);

    Uni<TrunkView> insert(Trunk trunk);

    Uni<TrunkView> update(Trunk trunk);

    Uni<Void> delete(long organizationId, long configurationId, long trunkId);
}
