package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.Provider;

/**
 * Out-port: turns what a user typed into the one form a provider dials: E.164 for the public
 * network, SIP URIs as given, and for Asterisk also extensions and dial strings. An address that
 * cannot be dialed is a DomainRuleViolation whose message says why.
 */
public interface PhoneNumberNormalizer {

    /** @param countryCode ISO region ("US") or calling code ("1", "+44") for bare national digits; may be null */
    String normalize(String address, String countryCode, Provider provider);

    /**
     * The organization's own numbers (caller ids, numbers calls arrive on), accepted as the reference
     * accepts them: SIP URIs; for the public network a number whose length and shape are possible for
     * its country, even if not in the numbering plan's assignment tables; a bare extension where the
     * provider routes through trunks (Asterisk, Cloudonix).
     */
    String normalizeCaller(String address, String countryCode, Provider provider);

    /** False for a public-network number the numbering plan does not know as assigned (a likely typo). */
    boolean assigned(String normalized);
}
