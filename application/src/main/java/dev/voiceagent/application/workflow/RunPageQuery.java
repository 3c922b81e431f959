package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Pages;
import dev.voiceagent.domain.workflow.RunFilter;
import java.util.List;

/** A page of runs: page >= 1, limit 1..100, filters, sort by created_at or duration, asc or desc. */
public record RunPageQuery(int page, int limit, List<RunFilter> filters, SortBy sortBy, boolean ascending) {

    public enum SortBy { CREATED_AT, DURATION }

    public RunPageQuery {
        Pages.require(page, limit);
        filters = List.copyOf(filters);
    }

    public long offset() {
        return (long) (page - 1) * limit;
    }
}
