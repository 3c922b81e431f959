package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;

/** Out-port: the numbers of a configuration. A normalized address taken in the organization is a ConflictException. */
public interface PhoneNumberRepository {

    Uni<List<PhoneNumberView>> list(long organizationId, long configurationId);

    /** Every number of the organization, whatever its configuration. */
    Uni<List<PhoneNumberView>> listAll(long organizationId);

    /**
     * The active numbers with this normalized address in every organization (an inbound call names only the number;
     * the provider account that signed the webhook tells which one it is).
     */
    Uni<List<TelephonyNumber>> findActiveByNormalized(String normalized);

    Uni<Optional<PhoneNumberView>> find(long organizationId, long configurationId, long numberId);

    Uni<PhoneNumberView> insert(TelephonyNumber number);

    Uni<PhoneNumberView> update(TelephonyNumber number);

    Uni<Void> delete(long organizationId, long configurationId, long numberId);

    /** This number becomes its configuration's default caller; any previous one stops being it. */
    Uni<Void> makeDefaultCaller(long organizationId, long configurationId, long numberId);
}
