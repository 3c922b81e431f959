package dev.voiceagent.adapters.postgres.usage;

import dev.voiceagent.adapters.postgres.shared.Columns;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.adapters.postgres.workflow.RunRows;
import dev.voiceagent.application.usage.UsageRepository.UsageRunQuery;
import dev.voiceagent.domain.usage.UsageRunFilter;
import java.util.ArrayList;
import java.util.List;

/** The organization's usage runs matching a query as parameterised SQL (values are always bound, never spliced). */
final class UsageRunSql {

    static final String RUN_COLUMNS = Columns.prefixed("r", RunRows.COLUMNS);

    final StringBuilder from = new StringBuilder(" FROM usage_records u JOIN workflow_runs r ON r.id = u.workflow_run_id"
            + " JOIN workflows w ON w.id = r.workflow_id WHERE u.organization_id = $1");
    final List<Object> args = new ArrayList<>();

    UsageRunSql(long organizationId, UsageRunQuery query) {
        args.add(organizationId);
        if (query.from() != null) {
            bind(" AND u.run_created_at >= ", utc(query.from()));
        }
        if (query.to() != null) {
            bind(" AND u.run_created_at <= ", utc(query.to()));
        }
        for (UsageRunFilter filter : query.filters()) {
            switch (filter) {
                case UsageRunFilter.Id id -> bind(switch (id.attribute()) {
                    case "runId" -> " AND r.id = ";
                    case "workflowId" -> " AND r.workflow_id = ";
                    default -> " AND r.campaign_id = ";
                }, id.value());
                case UsageRunFilter.NumberContains n -> {
                    args.add(n.text());
                    from.append(" AND strpos(r.initial_context->>'")
                            .append(n.attribute().equals("callerNumber") ? "caller_number" : "called_number")
                            .append("', $").append(args.size()).append(") > 0");
                }
                case UsageRunFilter.Dispositions d -> {
                    args.add(d.codes().toArray(String[]::new));
                    from.append(" AND r.gathered_context->>'mapped_call_disposition' = ANY($").append(args.size())
                            .append(')');
                }
                case UsageRunFilter.Duration d -> {
                    if (d.min() != null) {
                        bind(" AND u.call_seconds >= ", d.min());
                    }
                    if (d.max() != null) {
                        bind(" AND u.call_seconds <= ", d.max());
                    }
                }
                case UsageRunFilter.Direction d -> bind(" AND r.call_type = ", d.callType());
                case UsageRunFilter.Channel c -> {
                    args.add(c.modes().toArray(String[]::new));
                    from.append(" AND r.mode = ANY($").append(args.size()).append(')');
                }
            }
        }
    }

    private void bind(String condition, Object value) {
        args.add(value);
        from.append(condition).append('$').append(args.size());
    }

    static String order(UsageRunQuery query) {
        String direction = query.ascending() ? " ASC" : " DESC";
        return (query.sortByDuration() ? "u.call_seconds" : "u.run_created_at") + direction + ", u.workflow_run_id"
                + direction;
    }
}
