package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;

/**
 * Out-port: telephony configurations of one organization, credentials encrypted at rest. Exactly
 * one configuration per organization is the default for outbound calls whenever any exists.
 */
public interface TelephonyConfigurationRepository {

    /** Oldest first, inactive ones included, each with its active number count. */
    Uni<List<TelephonyConfigurationView>> list(long organizationId);

    /** Whether the organization has any telephony configuration (nothing is read, nothing decrypted). */
    Uni<Boolean> exists(long organizationId);

    Uni<Optional<TelephonyConfigurationView>> find(long organizationId, long configurationId);

    /**
     * Stores a new configuration; it becomes the default when asked or when the organization has
     * none. A name taken in the organization is a ConflictException.
     */
    Uni<TelephonyConfiguration> insert(TelephonyConfiguration configuration);

    Uni<TelephonyConfiguration> update(TelephonyConfiguration configuration);

    /** Refused (ConflictException) while a campaign uses it; a deleted default passes to the oldest active one. */
    Uni<Void> delete(long organizationId, long configurationId);

    /** This one becomes the default; the previous default stops being it, in one transaction. */
    Uni<Void> makeDefaultOutbound(long organizationId, long configurationId);

    /**
     * Every organization's active configurations of one provider, oldest first: the installation's own work on them
     * (the control connections a carrier like Asterisk needs held open), never shown to a tenant.
     */
    Uni<List<TelephonyConfiguration>> activeOf(Provider provider);

    /** The codes this organization's finished runs ended with. */
    Uni<List<String>> dispositionCodesSeen(long organizationId);
}
