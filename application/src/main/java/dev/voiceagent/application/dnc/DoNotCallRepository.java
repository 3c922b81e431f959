package dev.voiceagent.application.dnc;

import dev.voiceagent.domain.calling.DoNotCallEntry;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;

/** Out-port: an organization's do-not-call list. */
public interface DoNotCallRepository {

    record Page(List<DoNotCallEntry> entries, long totalCount) {
    }

    /** Newest first; {@code search} (or null) matches part of the number or the reason. */
    Uni<Page> page(long organizationId, String search, int page, int limit);

    /** The entry, added unless the number was listed already (then the existing one). */
    Uni<DoNotCallEntry> add(long organizationId, DoNotCallEntry entry);

    /** Adds those not listed yet; how many were added. */
    Uni<Integer> addAll(long organizationId, List<DoNotCallEntry> entries);

    Uni<Boolean> remove(long organizationId, String phoneNumber);

    Uni<Optional<DoNotCallEntry>> find(long organizationId, String phoneNumber);

    Uni<List<String>> dispositionCodes(long organizationId);

    Uni<List<String>> setDispositionCodes(long organizationId, List<String> codes);
}
