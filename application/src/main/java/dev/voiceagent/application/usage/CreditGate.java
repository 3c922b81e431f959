package dev.voiceagent.application.usage;

import dev.voiceagent.application.shared.PaymentRequiredException;
import io.smallrye.mutiny.Uni;

/**
 * Credit enforcement (an installation setting, off by default): with it, an organization whose balance is
 * exhausted (zero or below) may not start calls, campaign dials or chat sessions.
 */
public class CreditGate {

    public static final String EXHAUSTED = "Insufficient credits: the organization's credit balance is exhausted";

    private final CreditLedger ledger;
    private final boolean enforced;

    public CreditGate(CreditLedger ledger, boolean enforced) {
        this.ledger = ledger;
        this.enforced = enforced;
    }

    public static CreditGate open() {
        return new CreditGate(null, false);
    }

    public boolean enforced() {
        return enforced;
    }

    public Uni<Boolean> exhausted(long organizationId) {
        return enforced ? ledger.balance(organizationId).map(balance -> balance <= 0) : Uni.createFrom().item(false);
    }

    /** Fails with 402 when the organization may not start anything new. */
    public Uni<Void> requireCredit(long organizationId) {
        return exhausted(organizationId).invoke(exhausted -> {
            if (exhausted) {
                throw new PaymentRequiredException(EXHAUSTED);
            }
        }).replaceWithVoid();
    }
}
