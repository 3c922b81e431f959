package dev.voiceagent.application.shared;

import dev.voiceagent.domain.shared.DomainRuleViolation;

/** The page parameters every paged list shares: page from 1, limit from 1 to {@value #MAX_LIMIT}. */
public final class Pages {

    public static final int MAX_LIMIT = 100;

    private Pages() {
    }

    /** Refuses a page below 1 or a limit outside 1..100 (a 400 in the spec's error shape). */
    public static void require(int page, int limit) {
        if (page < 1 || limit < 1 || limit > MAX_LIMIT) {
            throw new DomainRuleViolation("page must be >= 1 and limit between 1 and " + MAX_LIMIT);
        }
    }
}
