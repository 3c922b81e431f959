package dev.voiceagent.application.usage;

import dev.voiceagent.application.usage.UsageUseCases.CurrentPeriod;
import dev.voiceagent.application.usage.UsageUseCases.Breakdown;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.organization.OrganizationPreferencesRepository;
import dev.voiceagent.application.shared.Pages;
import dev.voiceagent.application.usage.CreditLedger.LedgerPage;
import dev.voiceagent.application.usage.UsageRepository.Metered;
import dev.voiceagent.application.usage.UsageRepository.UsageRunPage;
import dev.voiceagent.application.usage.UsageRepository.UsageRunQuery;
import dev.voiceagent.application.workflow.RunReportStream;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.usage.Price;
import dev.voiceagent.domain.usage.RunUsage;
import dev.voiceagent.domain.usage.UsageDay;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Metering and its reports. Every finished run is metered once by a tick on any replica: call seconds (the call
 * ledger's for a telephone call), model tokens, the price in force (the organization's, else the installation's)
 * and the charge in cents, debited from the organization's credits in the same transaction. The same pass puts the
 * customer's number on the do-not-call list when the run ended with a disposition the organization maps to it.
 */
public class UsageService implements UsageUseCases.GetCurrentUsageUseCase, UsageUseCases.GetDailyUsageUseCase,
        UsageUseCases.ListUsageRunsUseCase, UsageUseCases.ExportUsageReportUseCase,
        UsageUseCases.ListCreditEntriesUseCase, UsageUseCases.MeterUsageUseCase {

    static final int BATCH = 200;

    private final UsageRepository usage;
    private final CreditLedger credits;
    private final OrganizationPreferencesRepository preferences;
    private final Price installationPrice;
    private final Clock clock;

    public UsageService(UsageRepository usage, CreditLedger credits, OrganizationPreferencesRepository preferences,
            Price installationPrice, Clock clock) {
        this.usage = usage;
        this.credits = credits;
        this.preferences = preferences;
        this.installationPrice = installationPrice;
        this.clock = clock;
    }

    @Override
    public Uni<Integer> meterNext() {
        return usage.meter(BATCH, this::price);
    }

    /**
     * Pure: what each run used and costs at the price in force now, and whether its disposition is one the
     * organization maps to do-not-call (then the customer's number on its call is listed).
     */
    List<Metered> price(List<UsageRepository.UnmeteredRun> runs) {
        Instant now = clock.instant();
        return runs.stream().map(run -> {
            RunUsage used = RunUsage.of(run.mode(), run.ledgerSeconds(), run.usageInfo());
            Price price = installationPrice.overriddenBy(run.organizationPrice());
            String doNotCall = run.disposition() != null && run.customerNumber() != null
                    && run.customerNumber().startsWith("+") && run.doNotCallDispositions().contains(run.disposition())
                    ? run.customerNumber() : null;
            return new Metered(run, used, price, price.chargeMinor(used.callSeconds()), now, doNotCall);
        }).toList();
    }

    @Override
    public Uni<CurrentPeriod> currentPeriod(Principal principal) {
        long org = principal.organizationId();
        ZonedDateTime now = clock.instant().atZone(ZoneOffset.UTC);
        Instant start = now.toLocalDate().withDayOfMonth(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        Instant end = now.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        return Uni.combine().all().unis(usage.totals(org, start, end), price(org)).asTuple()
                .map(t -> new CurrentPeriod(start, end, t.getItem1().seconds(), t.getItem1().chargeMinor(),
                        t.getItem2()));
    }

    @Override
    public Uni<Breakdown> dailyBreakdown(Principal principal, int days) {
        if (days < 1 || days > UsageDay.MAX_DAYS) {
            throw new DomainRuleViolation("days must be between 1 and " + UsageDay.MAX_DAYS);
        }
        long org = principal.organizationId();
        return preferences.get(org).chain(p -> {
            ZoneId zone = p.timezone() == null ? ZoneOffset.UTC : ZoneId.of(p.timezone());
            LocalDate today = clock.instant().atZone(zone).toLocalDate();
            Instant from = today.minusDays(days - 1L).atStartOfDay(zone).toInstant();
            Instant to = today.plusDays(1).atStartOfDay(zone).toInstant();
            return Uni.combine().all().unis(usage.days(org, zone, from, to), price(org)).asTuple().map(t -> {
                Map<LocalDate, UsageDay> used = t.getItem1().stream()
                        .collect(Collectors.toMap(UsageDay::date, Function.identity()));
                List<UsageDay> all = UsageDay.lastDays(today, days, used);
                return new Breakdown(all, all.stream().mapToLong(UsageDay::seconds).sum(),
                        all.stream().mapToLong(UsageDay::chargeMinor).sum(), t.getItem2());
            });
        });
    }

    @Override
    public Uni<UsageRunPage> runs(Principal principal, UsageRunQuery query) {
        return usage.runs(principal.organizationId(), query);
    }

    @Override
    public Uni<Multi<String>> report(Principal principal, UsageRunQuery query) {
        long org = principal.organizationId();
        return usage.reportVariables(org, query)
                .map(variables -> RunReportStream.csv(variables, usage.reportRuns(org, query)));
    }

    @Override
    public Uni<LedgerPage> credits(Principal principal, int page, int limit) {
        Pages.require(page, limit);
        return credits.page(principal.organizationId(), page, limit);
    }

    private Uni<Price> price(long org) {
        return usage.organizationPrice(org).map(installationPrice::overriddenBy);
    }
}
