package dev.voiceagent.application.usage;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.usage.CreditLedger.LedgerPage;
import dev.voiceagent.application.usage.UsageRepository.UsageRunPage;
import dev.voiceagent.application.usage.UsageRepository.UsageRunQuery;
import dev.voiceagent.domain.usage.Price;
import dev.voiceagent.domain.usage.UsageDay;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;

/** An organization's metered usage and credits. */
public interface UsageUseCases {

    /** The calendar month (UTC) so far: its bounds, the metered seconds and charge, the price in force now. */
    record CurrentPeriod(Instant start, Instant end, long seconds, long chargeMinor, Price price) {
    }

    /** The last days in the organization's time zone, oldest first, with their totals. */
    record Breakdown(List<UsageDay> days, long totalSeconds, long totalChargeMinor, Price price) {
    }

    interface GetCurrentUsageUseCase {

        Uni<CurrentPeriod> currentPeriod(Principal principal);
    }

    interface GetDailyUsageUseCase {

        Uni<Breakdown> dailyBreakdown(Principal principal, int days);
    }

    interface ListUsageRunsUseCase {

        Uni<UsageRunPage> runs(Principal principal, UsageRunQuery query);
    }

    interface ExportUsageReportUseCase {

        /** The matching runs as CSV lines (the run report's columns), streamed. */
        Uni<Multi<String>> report(Principal principal, UsageRunQuery query);
    }

    interface ListCreditEntriesUseCase {

        Uni<LedgerPage> credits(Principal principal, int page, int limit);
    }

    /** The metering tick: records the next finished runs; how many. */
    interface MeterUsageUseCase {

        Uni<Integer> meterNext();
    }
}
