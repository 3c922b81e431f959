package dev.voiceagent.application.dnc;

import dev.voiceagent.application.dnc.DoNotCallUseCases.ImportProblem;
import dev.voiceagent.application.dnc.DoNotCallUseCases.ImportResult;
import static dev.voiceagent.application.dnc.DoNotCallUseCases.MAX_REPORTED_PROBLEMS;
import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.source.ContactSourceReader;
import dev.voiceagent.application.shared.Pages;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.telephony.PhoneNumberNormalizer;
import dev.voiceagent.domain.calling.DoNotCallEntry;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.storage.ObjectKeys;
import dev.voiceagent.domain.telephony.Provider;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** Numbers are kept in E.164 (what a public-network call dials), so a listed number matches however it was typed. */
@Singleton
public class DoNotCallService implements DoNotCallUseCases.ListDoNotCallUseCase, DoNotCallUseCases.AddDoNotCallUseCase,
        DoNotCallUseCases.RemoveDoNotCallUseCase, DoNotCallUseCases.ImportDoNotCallUseCase,
        DoNotCallUseCases.GetDoNotCallDispositionsUseCase, DoNotCallUseCases.SetDoNotCallDispositionsUseCase,
        DoNotCallUseCases.RequireCallableUseCase {

    /** Rows one import may hold; a larger list is imported in several files. */
    public static final int MAX_IMPORT_ROWS = 200_000;
    static final int BATCH = 5_000;
    static final int MAX_CODES = 50;

    private final DoNotCallRepository numbers;
    private final PhoneNumberNormalizer normalizer;
    private final ContactSourceReader csv;
    private final Clock clock;

    public DoNotCallService(DoNotCallRepository numbers, PhoneNumberNormalizer normalizer, ContactSourceReader csv,
            Clock clock) {
        this.numbers = numbers;
        this.normalizer = normalizer;
        this.csv = csv;
        this.clock = clock;
    }

    @Override
    public Uni<DoNotCallRepository.Page> list(Principal principal, String search, int page, int limit) {
        Pages.require(page, limit);
        String term = search == null || search.isBlank() ? null : search.strip();
        return numbers.page(principal.organizationId(), term, page, limit);
    }

    @Override
    public Uni<DoNotCallEntry> add(Principal principal, String phoneNumber, String countryCode, String reason) {
        String number = e164(phoneNumber, countryCode);
        return numbers.add(principal.organizationId(), new DoNotCallEntry(number, DoNotCallEntry.Source.MANUAL,
                blankToNull(reason), null, clock.instant()));
    }

    @Override
    public Uni<Void> remove(Principal principal, String phoneNumber, String countryCode) {
        String number = e164(phoneNumber, countryCode);
        return numbers.remove(principal.organizationId(), number).invoke(removed -> {
            if (!removed) {
                throw new ResourceNotFoundException("Number not on the do-not-call list");
            }
        }).replaceWithVoid();
    }

    @Override
    public Uni<ImportResult> importCsv(Principal principal, String fileKey, String countryCode, String reason) {
        long org = principal.organizationId();
        try {
            ObjectKeys.checkOwner(fileKey, org);
        } catch (ObjectKeys.ForeignKeyException e) {
            throw new ResourceNotFoundException("File not found");
        }
        Set<String> found = new LinkedHashSet<>();
        List<ImportProblem> problems = new ArrayList<>();
        int[] counts = new int[2]; // rows, invalid
        return csv.forEachRow(fileKey, new ContactSourceReader.RowSink() {
                    private int column;

                    @Override
                    public void header(List<String> columns) {
                        column = Math.max(0, columns.stream().map(c -> c.strip().toLowerCase(Locale.ROOT)).toList()
                                .indexOf("phone_number"));
                    }

                    @Override
                    public void row(List<String> values) {
                        if (++counts[0] > MAX_IMPORT_ROWS) {
                            throw new DomainRuleViolation("A do-not-call import holds at most " + MAX_IMPORT_ROWS
                                    + " rows");
                        }
                        String value = column < values.size() ? values.get(column) : "";
                        try {
                            found.add(e164(value, countryCode));
                        } catch (DomainRuleViolation e) {
                            counts[1]++;
                            if (problems.size() < MAX_REPORTED_PROBLEMS) {
                                problems.add(new ImportProblem(counts[0] + 1, value, e.getMessage()));
                            }
                        }
                    }
                })
                .chain(() -> {
                    List<DoNotCallEntry> entries = found.stream().map(n -> new DoNotCallEntry(n,
                            DoNotCallEntry.Source.IMPORT, blankToNull(reason), null, clock.instant())).toList();
                    List<List<DoNotCallEntry>> batches = new ArrayList<>();
                    for (int i = 0; i < entries.size(); i += BATCH) {
                        batches.add(entries.subList(i, Math.min(entries.size(), i + BATCH)));
                    }
                    return Multi.createFrom().iterable(batches)
                            .onItem().transformToUniAndConcatenate(batch -> numbers.addAll(org, batch))
                            .collect().with(Collectors.summingInt(Integer::intValue))
                            .map(added -> new ImportResult(counts[0], added, counts[0] - counts[1] - added, counts[1],
                                    List.copyOf(problems)));
                });
    }

    @Override
    public Uni<List<String>> dispositionCodes(Principal principal) {
        return numbers.dispositionCodes(principal.organizationId());
    }

    @Override
    public Uni<List<String>> setDispositionCodes(Principal principal, List<String> codes) {
        List<String> cleaned = codes.stream().map(c -> c == null ? "" : c.strip()).distinct().toList();
        if (cleaned.size() > MAX_CODES || cleaned.stream().anyMatch(c -> c.isEmpty() || c.length() > 100)) {
            throw new DomainRuleViolation("disposition_codes: at most " + MAX_CODES + " codes of 1 to 100 characters");
        }
        return numbers.setDispositionCodes(principal.organizationId(), cleaned);
    }

    @Override
    public Uni<Void> requireCallable(long organizationId, String phoneNumber) {
        if (phoneNumber == null || !phoneNumber.startsWith("+")) {
            return Uni.createFrom().voidItem(); // SIP addresses and extensions are not public numbers
        }
        return numbers.find(organizationId, phoneNumber).invoke(listed -> {
            if (listed.isPresent()) {
                throw new DomainRuleViolation(phoneNumber + " is on the organization's do-not-call list");
            }
        }).replaceWithVoid();
    }

    /** A public telephone number in E.164; anything else (a SIP address, an extension, a typo) is refused. */
    String e164(String value, String countryCode) {
        if (value == null || value.isBlank()) {
            throw new DomainRuleViolation("phone_number is required");
        }
        String normalized = normalizer.normalize(value.strip(), blankToNull(countryCode), Provider.TWILIO);
        if (!normalized.startsWith("+")) {
            throw new DomainRuleViolation("Not a public telephone number: " + value.strip());
        }
        return normalized;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
