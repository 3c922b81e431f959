package dev.voiceagent.domain.account;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.DateTimeException;
import java.time.ZoneId;

/** An organization's preferences: the number test calls go to, its time zone, PBX integrations. */
public record OrganizationPreferences(String testPhoneNumber, String timezone, boolean externalPbxIntegrationsEnabled) {

    public static final OrganizationPreferences NONE = new OrganizationPreferences(null, null, false);

    public OrganizationPreferences {
        testPhoneNumber = testPhoneNumber == null || testPhoneNumber.isBlank() ? null : testPhoneNumber.strip();
        timezone = timezone == null || timezone.isBlank() ? null : timezone.strip();
        if (timezone != null) {
            try {
                ZoneId.of(timezone);
            } catch (DateTimeException e) {
                throw new DomainRuleViolation("Invalid timezone: " + timezone);
            }
        }
    }
}
