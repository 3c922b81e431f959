package dev.voiceagent.application.usage;

import dev.voiceagent.domain.usage.CreditEntry;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Out-port: an organization's credit account and its append-only ledger. */
public interface CreditLedger {

    record Account(long id, long organizationId, long balance) {
    }

    /** An entry to append once: a second append with the same idempotency key changes nothing. */
    record Append(long organizationId, CreditEntry.Type type, String origin, long creditsDelta, Long amountMinor,
            String amountCurrency, Long billableQuantity, String quantityUnit, String correlationId,
            String idempotencyKey, Map<String, Object> metadata) {
    }

    record LedgerPage(Account account, List<CreditEntry> entries, long totalCount, long creditsUsed,
            long creditsAdded) {
    }

    /** The entry appended (the balance moved with it), or empty when its idempotency key was already used. */
    Uni<Optional<CreditEntry>> append(Append entry);

    /** The balance; 0 for an organization without an account yet. */
    Uni<Long> balance(long organizationId);

    /** The account (opened at zero if there was none), newest entries first, and the totals of the ledger. */
    Uni<LedgerPage> page(long organizationId, int page, int limit);
}
