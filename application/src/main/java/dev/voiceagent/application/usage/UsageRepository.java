package dev.voiceagent.application.usage;

import dev.voiceagent.domain.usage.Price;
import dev.voiceagent.domain.usage.RunUsage;
import dev.voiceagent.domain.usage.UsageDay;
import dev.voiceagent.domain.usage.UsageRunFilter;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Out-port: usage records of finished runs, always within one organization for reads. */
public interface UsageRepository {

    /**
     * A finished run not yet metered, with what metering needs: its usage, the organization's price, and for the
     * do-not-call rule its disposition, the customer's number on its call (null without one) and the
     * organization's do-not-call dispositions.
     */
    record UnmeteredRun(long runId, long organizationId, long workflowId, String mode, Instant createdAt,
            Integer ledgerSeconds, Map<String, Object> usageInfo, BigDecimal organizationPrice, String disposition,
            String customerNumber, List<String> doNotCallDispositions) {
    }

    /**
     * What a run is recorded as: its usage, the price in force, the charge in minor units, and the number to put
     * on the organization's do-not-call list (null for none).
     */
    record Metered(UnmeteredRun run, RunUsage usage, Price price, long chargeMinor, Instant at, String doNotCall) {
    }

    record Totals(long seconds, long chargeMinor, long runs) {
    }

    /** A usage run: the run, its agent's name and its metered seconds and charge. */
    record UsageRun(WorkflowRun run, String workflowName, long callSeconds, long chargeMinor, boolean priced) {
    }

    record UsageRunQuery(Instant from, Instant to, List<UsageRunFilter> filters, boolean sortByDuration,
            boolean ascending, int page, int limit) {

        public long offset() {
            return (long) (page - 1) * limit;
        }
    }

    record UsageRunPage(List<UsageRun> runs, long totalCount, long totalSeconds, long totalChargeMinor) {
    }

    /**
     * In one transaction: claims up to {@code limit} finished runs not yet metered (oldest first; runs another
     * replica is metering are skipped, and so are runs whose QA review is pending: its tokens are the run's usage), prices them with {@code pricing}, records a usage record per run, lists
     * the numbers {@code pricing} named as do-not-call, debits
     * each charge from the organization's credits, adds the charge to the run's cost_info (values already there,
     * such as an imported run's dograh_token_usage, are kept) and marks it metered. How many.
     */
    Uni<Integer> meter(int limit, Function<List<UnmeteredRun>, List<Metered>> pricing);

    /** The price an operator set for the organization, or null. */
    Uni<BigDecimal> organizationPrice(long organizationId);

    /** Metered usage of runs created in [from, to). */
    Uni<Totals> totals(long organizationId, Instant from, Instant to);

    /** Metered usage of runs created in [from, to) by calendar day in {@code zone} (days with none left out). */
    Uni<List<UsageDay>> days(long organizationId, ZoneId zone, Instant from, Instant to);

    Uni<UsageRunPage> runs(long organizationId, UsageRunQuery query);

    /** Extracted-variable names of the matching runs, in first-seen order (newest run first). */
    Uni<List<String>> reportVariables(long organizationId, UsageRunQuery query);

    /** Every matching run, newest first, streamed from the database in batches. */
    Multi<WorkflowRun> reportRuns(long organizationId, UsageRunQuery query);
}
