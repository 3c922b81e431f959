package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.RunFilter;
import java.util.List;

/** A page of runs: page >= 1, limit 1..100, filters, sort by created_at or duration, asc or desc. */
public record RunPageQuery(int page, int limit, List<RunFilter> filters, SortBy sortBy, boolean ascending) {

    public enum SortBy { CREATED_AT, DURATION }

    public RunPageQuery {
        if (page < 1 || limit < 1 || limit > 100) {
            throw new DomainRuleViolation("page must be >= 1 and limit between 1 and 100");
        }
        filters = List.copyOf(filters);
    }

    public long offset() {
        return (long) (page - 1) * limit;
    }
}
