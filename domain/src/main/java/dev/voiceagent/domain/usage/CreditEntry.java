package dev.voiceagent.domain.usage;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * One line of an organization's credit ledger (one credit is one minor unit, a cent): a grant, a purchase or a
 * usage debit, with the balance it left. Entries are only ever appended.
 */
public record CreditEntry(long id, Type type, String origin, long creditsDelta, long balanceAfter, Long amountMinor,
        String amountCurrency, Long workflowRunId, Long workflowId, Long billableQuantity, String quantityUnit,
        String correlationId, Map<String, Object> metadata, Instant createdAt) {

    public enum Type {
        GRANT, PURCHASE, USAGE;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Type fromWireName(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }
    }
}
