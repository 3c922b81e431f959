package dev.voiceagent.application.model;

import java.util.Map;

/**
 * The reference's user configuration: per service settings (masked), is_realtime, the organization's
 * test_phone_number and timezone, and its pricing when it has one.
 */
public record UserConfigurationView(Map<String, Object> services, boolean realtime, String testPhoneNumber,
        String timezone, Map<String, Object> organizationPricing) {
}
