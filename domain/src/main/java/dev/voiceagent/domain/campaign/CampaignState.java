package dev.voiceagent.domain.campaign;

import java.util.Locale;
import java.util.Optional;

/** The lifecycle of a campaign: created -> syncing -> running <-> paused -> completed | failed. */
public enum CampaignState {
    CREATED, SYNCING, RUNNING, PAUSED, COMPLETED, FAILED;

    /** The value on the wire and in the database. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean isTerminal() {
        return this == COMPLETED || this == FAILED;
    }

    public static Optional<CampaignState> fromWireName(String value) {
        for (CampaignState state : values()) {
            if (state.wireName().equals(value)) {
                return Optional.of(state);
            }
        }
        return Optional.empty();
    }
}
