package dev.voiceagent.adapters.rest.usage;

import dev.voiceagent.application.usage.CreditLedger.LedgerPage;
import dev.voiceagent.application.usage.UsageRepository.UsageRun;
import dev.voiceagent.application.usage.UsageUseCases.Breakdown;
import dev.voiceagent.application.usage.UsageUseCases.CurrentPeriod;
import dev.voiceagent.application.workflow.RunArtifactUseCases.PublicArtifactLinksUseCase;
import dev.voiceagent.domain.usage.CreditEntry;
import dev.voiceagent.domain.usage.Price;
import dev.voiceagent.domain.usage.UsageDay;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.RunArtifact;
import dev.voiceagent.domain.workflow.WorkflowRun;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Usage and credit wire shapes, by the reference's schema names. Amounts are exact decimals made from integer
 * minor units; dograh tokens are cents (the reference's 1 token = 1 cent) and one credit is one cent.
 */
public final class UsageResponses {

    private UsageResponses() {
    }

    @Schema(name = "CurrentUsageResponse")
    public record CurrentUsageResponse(@Schema(required = true) String periodStart,
            @Schema(required = true) String periodEnd, @Schema(required = true) BigDecimal usedDograhTokens,
            @Schema(required = true) long totalDurationSeconds, @Schema(nullable = true) BigDecimal usedAmountUsd,
            @Schema(nullable = true) String currency, @Schema(nullable = true) BigDecimal pricePerSecondUsd) {

        static CurrentUsageResponse of(CurrentPeriod p) {
            boolean priced = p.price().priced();
            return new CurrentUsageResponse(p.start().toString(), p.end().toString(), BigDecimal.valueOf(p.chargeMinor()),
                    p.seconds(), priced ? Price.major(p.chargeMinor()) : null, priced ? Price.CURRENCY : null,
                    p.price().perSecond());
        }
    }

    @Schema(name = "DailyUsageItem")
    public record DailyUsageItem(@Schema(required = true) String date, @Schema(required = true) BigDecimal minutes,
            @Schema(nullable = true) BigDecimal costUsd, @Schema(required = true) BigDecimal dograhTokens,
            @Schema(required = true) long callCount) {
    }

    @Schema(name = "DailyUsageBreakdownResponse")
    public record DailyUsageBreakdownResponse(@Schema(required = true) List<DailyUsageItem> breakdown,
            @Schema(required = true) BigDecimal totalMinutes, @Schema(nullable = true) BigDecimal totalCostUsd,
            @Schema(required = true) BigDecimal totalDograhTokens, @Schema(nullable = true) String currency) {

        static DailyUsageBreakdownResponse of(Breakdown b) {
            boolean priced = b.price().priced();
            List<DailyUsageItem> days = b.days().stream().map((UsageDay d) -> new DailyUsageItem(d.date().toString(),
                    d.minutes(), priced ? Price.major(d.chargeMinor()) : null, BigDecimal.valueOf(d.chargeMinor()),
                    d.calls())).toList();
            return new DailyUsageBreakdownResponse(days, UsageDay.minutes(b.totalSeconds()),
                    priced ? Price.major(b.totalChargeMinor()) : null, BigDecimal.valueOf(b.totalChargeMinor()),
                    priced ? Price.CURRENCY : null);
        }
    }

    @Schema(name = "WorkflowRunUsageResponse")
    public record WorkflowRunUsageResponse(@Schema(required = true) long id, @Schema(required = true) long workflowId,
            @Schema(required = true, nullable = true) String workflowName, @Schema(required = true) String name,
            @Schema(required = true) String createdAt, @Schema(required = true) BigDecimal dograhTokenUsage,
            @Schema(required = true) long callDurationSeconds, @Schema(nullable = true) String recordingUrl,
            @Schema(nullable = true) String transcriptUrl, @Schema(nullable = true) String userRecordingUrl,
            @Schema(nullable = true) String botRecordingUrl, @Schema(nullable = true) String recordingPublicUrl,
            @Schema(nullable = true) String transcriptPublicUrl,
            @Schema(nullable = true) String userRecordingPublicUrl,
            @Schema(nullable = true) String botRecordingPublicUrl, @Schema(nullable = true) String publicAccessToken,
            @Schema(nullable = true, deprecated = true, description = "Deprecated. Use caller_number and"
                    + " called_number instead.") String phoneNumber,
            @Schema(nullable = true) String callerNumber, @Schema(nullable = true) String calledNumber,
            @Schema(nullable = true) String callType, @Schema(nullable = true) String mode,
            @Schema(nullable = true) String disposition, @Schema(nullable = true) Map<String, Object> initialContext,
            @Schema(nullable = true) Map<String, Object> gatheredContext,
            @Schema(nullable = true) BigDecimal chargeUsd) {

        static WorkflowRunUsageResponse of(UsageRun u, Map<RunArtifact, String> tokens, String base) {
            WorkflowRun r = u.run();
            Function<RunArtifact, String> link = a -> tokens.containsKey(a) && base != null
                    ? PublicArtifactLinksUseCase.publicLink(base, tokens.get(a), a) : null;
            Map<String, Object> initial = r.initialContext() == null ? Map.of() : r.initialContext();
            return new WorkflowRunUsageResponse(r.id(), r.workflowId(), u.workflowName(), r.name(),
                    r.createdAt().toString(), BigDecimal.valueOf(u.chargeMinor()), u.callSeconds(), r.recordingUrl(),
                    r.transcriptUrl(), RunArtifact.USER_RECORDING.locationIn(r), RunArtifact.BOT_RECORDING.locationIn(r),
                    link.apply(RunArtifact.RECORDING), link.apply(RunArtifact.TRANSCRIPT),
                    link.apply(RunArtifact.USER_RECORDING), link.apply(RunArtifact.BOT_RECORDING), null,
                    JsonTree.asString(initial.get("phone_number")), JsonTree.asString(initial.get("caller_number")),
                    JsonTree.asString(initial.get("called_number")), r.callType(), r.mode(), r.disposition(),
                    r.initialContext(), r.gatheredContext(), u.priced() ? Price.major(u.chargeMinor()) : null);
        }
    }

    @Schema(name = "UsageHistoryResponse")
    public record UsageHistoryResponse(@Schema(required = true) List<WorkflowRunUsageResponse> runs,
            @Schema(required = true) BigDecimal totalDograhTokens, @Schema(required = true) long totalDurationSeconds,
            @Schema(required = true) long totalCount, @Schema(required = true) int page,
            @Schema(required = true) int limit, @Schema(required = true) long totalPages) {
    }

    @Schema(name = "MPSBillingAccountResponse")
    public record MPSBillingAccountResponse(@Schema(required = true) long id,
            @Schema(required = true) long organizationId, @Schema(required = true) String billingMode,
            @Schema(required = true) BigDecimal cachedBalanceCredits, @Schema(required = true) String currency) {
    }

    @Schema(name = "MPSCreditLedgerEntryResponse")
    public record MPSCreditLedgerEntryResponse(@Schema(required = true) long id,
            @Schema(required = true, enumeration = {"grant", "purchase", "usage"}) String entryType,
            @Schema(nullable = true) String origin, @Schema(required = true) BigDecimal creditsDelta,
            @Schema(required = true) BigDecimal balanceAfter, @Schema(nullable = true) Long amountMinor,
            @Schema(nullable = true) String amountCurrency, @Schema(nullable = true) Long paymentOrderId,
            @Schema(nullable = true) String metricCode, @Schema(nullable = true) String correlationId,
            @Schema(nullable = true) String aggregationKey, @Schema(nullable = true) Long usageEventId,
            @Schema(nullable = true) Long workflowRunId, @Schema(nullable = true) Long workflowId,
            @Schema(nullable = true) BigDecimal billableQuantity, @Schema(nullable = true) String quantityUnit,
            Map<String, Object> metadata, @Schema(required = true) String createdAt) {

        static MPSCreditLedgerEntryResponse of(CreditEntry e) {
            return new MPSCreditLedgerEntryResponse(e.id(), e.type().wireName(), e.origin(),
                    BigDecimal.valueOf(e.creditsDelta()), BigDecimal.valueOf(e.balanceAfter()), e.amountMinor(),
                    e.amountCurrency(), null, e.type() == CreditEntry.Type.USAGE ? "call_seconds" : null,
                    e.correlationId(), null, e.type() == CreditEntry.Type.USAGE ? e.workflowRunId() : null,
                    e.workflowRunId(), e.workflowId(),
                    e.billableQuantity() == null ? null : BigDecimal.valueOf(e.billableQuantity()), e.quantityUnit(),
                    e.metadata() == null ? Map.of() : e.metadata(), e.createdAt().toString());
        }
    }

    @Schema(name = "MPSBillingCreditsResponse")
    public record MPSBillingCreditsResponse(BigDecimal totalCreditsUsed, BigDecimal remainingCredits,
            BigDecimal totalQuota, @Schema(nullable = true) MPSBillingAccountResponse account,
            List<MPSCreditLedgerEntryResponse> ledgerEntries, long totalCount, int page, int limit,
            long totalPages) {

        static MPSBillingCreditsResponse of(LedgerPage p, int page, int limit) {
            long balance = p.account() == null ? 0 : p.account().balance();
            MPSBillingAccountResponse account = p.account() == null ? null : new MPSBillingAccountResponse(
                    p.account().id(), p.account().organizationId(), "prepaid", BigDecimal.valueOf(balance),
                    Price.CURRENCY);
            return new MPSBillingCreditsResponse(BigDecimal.valueOf(p.creditsUsed()), BigDecimal.valueOf(balance),
                    BigDecimal.valueOf(p.creditsAdded()), account,
                    p.entries().stream().map(MPSCreditLedgerEntryResponse::of).toList(), p.totalCount(), page, limit,
                    (p.totalCount() + limit - 1) / limit);
        }
    }
}
