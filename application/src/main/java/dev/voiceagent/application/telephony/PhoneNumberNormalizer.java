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
}
