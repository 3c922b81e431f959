package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.Trunk;

/** A trunk as shown: with how many of the organization's numbers route through it. */
public record TrunkView(Trunk trunk, long phoneNumberCount) {
}
