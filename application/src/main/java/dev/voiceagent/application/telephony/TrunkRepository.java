package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.Trunk;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;

/** Out-port: trunks of a configuration. Deleting one that numbers use is a ConflictException. */
public interface TrunkRepository {

    Uni<List<Trunk>> list(long organizationId, long configurationId);

    Uni<Optional<Trunk>> find(long organizationId, long configurationId, long trunkId);

    Uni<Trunk> insert(Trunk trunk);

    Uni<Trunk> update(Trunk trunk);

    Uni<Void> delete(long organizationId, long configurationId, long trunkId);
}
