package dev.voiceagent.domain.account;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A user's onboarding: when it was completed (or skipped), the tooltips seen and the actions done.
 * An update sets the scalars it gives and adds to the lists (a union), so two tabs updating at once
 * both keep what they recorded.
 */
public record OnboardingState(Instant completedAt, boolean skipped, List<String> seenTooltips,
        List<String> completedActions) {

    public static final OnboardingState NEW = new OnboardingState(null, false, List.of(), List.of());
    static final int MAX_ENTRIES = 200;
    static final int MAX_ENTRY_LENGTH = 100;

    public OnboardingState {
        seenTooltips = List.copyOf(seenTooltips);
        completedActions = List.copyOf(completedActions);
    }

    /** The state with an update applied; null arguments leave their part as it was. */
    public OnboardingState updated(Instant newCompletedAt, Boolean newSkipped, List<String> tooltips,
            List<String> actions) {
        return new OnboardingState(newCompletedAt != null ? newCompletedAt : completedAt,
                newSkipped != null ? newSkipped : skipped, union(seenTooltips, tooltips, "seen_tooltips"),
                union(completedActions, actions, "completed_actions"));
    }

    private static List<String> union(List<String> stored, List<String> added, String field) {
        if (added == null) {
            return stored;
        }
        Set<String> all = new LinkedHashSet<>(stored);
        for (String entry : added) {
            if (entry == null || entry.isBlank() || entry.length() > MAX_ENTRY_LENGTH) {
                throw new DomainRuleViolation(field + " entries must be 1 to " + MAX_ENTRY_LENGTH + " characters");
            }
            all.add(entry.strip());
        }
        if (all.size() > MAX_ENTRIES) {
            throw new DomainRuleViolation(field + " holds at most " + MAX_ENTRIES + " entries");
        }
        return new ArrayList<>(all);
    }
}
