package dev.voiceagent.domain.campaign;

import java.util.Locale;
import java.util.Optional;

/** The lifecycle of a campaign: created -> syncing -> running <-> paused -> completed | failed. */
public enum CampaignState {
    CREATED, SYNCING, RUNNING, PAUSED, COMPLETED, FAILED;

    private final String wireName = name().toLowerCase(Locale.ROOT);

    /** The value on the wire and in the database. */
    public String wireName() {
        return wireName;
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
