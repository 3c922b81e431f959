package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.TelephonyNumber;

/** A number as shown: with the name of the workflow that answers it (null when none). */
public record PhoneNumberView(TelephonyNumber number, String inboundWorkflowName) {
}
