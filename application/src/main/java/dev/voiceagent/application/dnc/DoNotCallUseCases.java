package dev.voiceagent.application.dnc;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.calling.DoNotCallEntry;
import io.smallrye.mutiny.Uni;
import java.util.List;

/** The organization's do-not-call list: list, add, remove, import from CSV, and the dispositions that add to it. */
public interface DoNotCallUseCases {

    int MAX_REPORTED_PROBLEMS = 20;

    record ImportProblem(int row, String value, String reason) {
    }

    record ImportResult(int rows, int added, int alreadyListed, int invalid, List<ImportProblem> problems) {
    }

    interface ListDoNotCallUseCase {

        Uni<DoNotCallRepository.Page> list(Principal principal, String search, int page, int limit);
    }

    interface AddDoNotCallUseCase {

        Uni<DoNotCallEntry> add(Principal principal, String phoneNumber, String countryCode, String reason);
    }

    interface RemoveDoNotCallUseCase {

        Uni<Void> remove(Principal principal, String phoneNumber, String countryCode);
    }

    interface ImportDoNotCallUseCase {

        /** A CSV in the object store (under the organization's prefix): the phone_number column, else the first. */
        Uni<ImportResult> importCsv(Principal principal, String fileKey, String countryCode, String reason);
    }

    interface GetDoNotCallDispositionsUseCase {

        Uni<List<String>> dispositionCodes(Principal principal);
    }

    interface SetDoNotCallDispositionsUseCase {

        Uni<List<String>> setDispositionCodes(Principal principal, List<String> codes);
    }

    interface RequireCallableUseCase {

        /** For calls about to be dialed: fails (400) when the number is listed; a failed check fails the call too. */
        Uni<Void> requireCallable(long organizationId, String phoneNumber);
    }
}
