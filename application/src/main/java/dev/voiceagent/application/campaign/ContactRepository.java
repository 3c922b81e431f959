package dev.voiceagent.application.campaign;

import dev.voiceagent.domain.campaign.Contact;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Out-port: the contacts of campaigns. */
public interface ContactRepository {

    /** Inserts a batch of one campaign's contacts; rows already there (an interrupted import resumed) are skipped. */
    Uni<Void> insertBatch(List<Contact> contacts);

    Uni<Long> count(long organizationId, long campaignId);

    /** Contacts in a final state whose last call ended in one of {@code outcomes}. */
    Uni<Long> countFinishedWith(long organizationId, long campaignId, List<String> outcomes);

    /** Contacts by state, and the finished ones by the status of their last call, in one read. */
    Uni<Breakdown> breakdown(long organizationId, long campaignId);

    record Tally(long processed, long failed) {
    }

    record Breakdown(Map<String, Long> byState, Map<String, Long> finishedByOutcome,
            long heldForCallingHours, Instant nextCallingHoursAt) {

        /** Last outcomes that count in failed_calls, as the reference counts them (voicemail does not). */
        static final Set<String> FAILED_CALLS = Set.of("failed", "error", "busy", "no-answer");

        /** Contacts in a final state, and those among them whose last call failed, was busy or unanswered. */
        public Tally tally() {
            long failed = finishedByOutcome.entrySet().stream().filter(e -> FAILED_CALLS.contains(e.getKey()))
                    .mapToLong(Map.Entry::getValue).sum();
            return new Tally(byState.getOrDefault("done", 0L), failed);
        }
    }
}
