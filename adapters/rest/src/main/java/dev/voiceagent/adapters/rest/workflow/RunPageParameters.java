package dev.voiceagent.adapters.rest.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import dev.voiceagent.application.workflow.RunPageQuery;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.RunFilter;
import java.util.List;

/**
 * The query parameters of a run listing (workflow runs, campaign runs): filters as a JSON array
 * (400 "Invalid filter format"), sort_by created_at or duration and sort_order asc or desc (422 otherwise).
 */
public record RunPageParameters(RunPageQuery query, List<Object> rawFilters) {

    public static RunPageParameters parse(ObjectMapper json, int page, int limit, String filters, String sortBy,
            String sortOrder) {
        List<Object> raw = parseFilters(json, filters);
        return new RunPageParameters(new RunPageQuery(page, limit, RunFilter.parse(raw), sortBy(sortBy),
                ascending(sortOrder)), raw);
    }

    public static long totalPages(long total, int limit) {
        return (total + limit - 1) / limit;
    }

    private static List<Object> parseFilters(ObjectMapper json, String filters) {
        if (filters == null || filters.isBlank()) {
            return List.of();
        }
        try {
            Object parsed = json.readValue(filters, Object.class);
            if (!(parsed instanceof List<?> list)) {
                throw new DomainRuleViolation("Invalid filter format");
            }
            return List.copyOf(list);
        } catch (JsonProcessingException e) {
            throw new DomainRuleViolation("Invalid filter format");
        }
    }

    private static RunPageQuery.SortBy sortBy(String value) {
        return switch (value) {
            case "created_at" -> RunPageQuery.SortBy.CREATED_AT;
            case "duration" -> RunPageQuery.SortBy.DURATION;
            default -> throw new RequestValidationException(ValidationError.of(List.of("query", "sort_by"),
                    "Input should be 'created_at' or 'duration'", "enum", value));
        };
    }

    private static boolean ascending(String value) {
        return switch (value) {
            case "asc" -> true;
            case "desc" -> false;
            default -> throw new RequestValidationException(ValidationError.of(List.of("query", "sort_order"),
                    "Input should be 'asc' or 'desc'", "enum", value));
        };
    }
}
