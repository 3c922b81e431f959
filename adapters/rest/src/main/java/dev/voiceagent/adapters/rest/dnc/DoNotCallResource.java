package dev.voiceagent.adapters.rest.dnc;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.dnc.DoNotCallUseCases;
import dev.voiceagent.domain.calling.DoNotCallEntry;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The organization's do-not-call list (numbers in E.164). A listed number is never dialed: the campaign dispatcher
 * checks it in the statement that claims a contact (the contact is skipped, finally, with a log entry), and single
 * calls and public triggers check it before dialing (400).
 */
@Path("/api/v1/organizations/dnc")
public class DoNotCallResource {

    public record DoNotCallNumber(String phoneNumber,
            @Schema(enumeration = {"manual", "import", "disposition"}) String source,
            @Schema(nullable = true) String reason, @Schema(nullable = true) Long workflowRunId, String createdAt) {

        static DoNotCallNumber of(DoNotCallEntry e) {
            return new DoNotCallNumber(e.phoneNumber(), e.source().wireName(), e.reason(), e.workflowRunId(),
                    e.createdAt().toString());
        }
    }

    public record DoNotCallListResponse(List<DoNotCallNumber> numbers, long totalCount, int page, int limit,
            long totalPages) {
    }

    public record AddDoNotCallRequest(@NotBlank @Size(max = 64) String phoneNumber,
            @Schema(nullable = true, description = "ISO region (US) or calling code for national numbers")
            @Size(max = 8) String countryCode,
            @Schema(nullable = true) @Size(max = 500) String reason) {
    }

    public record ImportDoNotCallRequest(
            @Schema(description = "A CSV uploaded with /object-store/presigned-upload-url: the phone_number column,"
                    + " else the first") @NotBlank @Size(max = 1024) String fileKey,
            @Schema(nullable = true) @Size(max = 8) String countryCode,
            @Schema(nullable = true) @Size(max = 500) String reason) {
    }

    public record ImportProblem(int row, String value, String reason) {
    }

    public record ImportDoNotCallResponse(int rows, int added, int alreadyListed, int invalid,
            @Schema(description = "The first 20 rows refused") List<ImportProblem> problems) {
    }

    public record DispositionCodes(@NotNull @Size(max = 50) List<@NotNull @Size(max = 100) String> dispositionCodes) {
    }

    public record RemovedResponse(boolean removed, String phoneNumber) {
    }

    private final Caller caller;
    private final DoNotCallUseCases.ListDoNotCallUseCase listDoNotCall;
    private final DoNotCallUseCases.AddDoNotCallUseCase addDoNotCall;
    private final DoNotCallUseCases.RemoveDoNotCallUseCase removeDoNotCall;
    private final DoNotCallUseCases.ImportDoNotCallUseCase importDoNotCall;
    private final DoNotCallUseCases.GetDoNotCallDispositionsUseCase getDoNotCallDispositions;
    private final DoNotCallUseCases.SetDoNotCallDispositionsUseCase setDoNotCallDispositions;

    public DoNotCallResource(Caller caller, DoNotCallUseCases.ListDoNotCallUseCase listDoNotCall,
            DoNotCallUseCases.AddDoNotCallUseCase addDoNotCall,
            DoNotCallUseCases.RemoveDoNotCallUseCase removeDoNotCall,
            DoNotCallUseCases.ImportDoNotCallUseCase importDoNotCall,
            DoNotCallUseCases.GetDoNotCallDispositionsUseCase getDoNotCallDispositions,
            DoNotCallUseCases.SetDoNotCallDispositionsUseCase setDoNotCallDispositions) {
        this.caller = caller;
        this.listDoNotCall = listDoNotCall;
        this.addDoNotCall = addDoNotCall;
        this.removeDoNotCall = removeDoNotCall;
        this.importDoNotCall = importDoNotCall;
        this.getDoNotCallDispositions = getDoNotCallDispositions;
        this.setDoNotCallDispositions = setDoNotCallDispositions;
    }

    @GET
    @Operation(summary = "List Do-Not-Call Numbers", description = "Newest first; search matches part of the number"
            + " or the reason")
    public Uni<DoNotCallListResponse> list(@QueryParam("page") @DefaultValue("1") @Min(1) int page,
            @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(100) int limit,
            @QueryParam("search") @Size(max = 100) String search) {
        return listDoNotCall.list(caller.principal(), search, page, limit).map(p -> new DoNotCallListResponse(
                p.entries().stream().map(DoNotCallNumber::of).toList(), p.totalCount(), page, limit,
                (p.totalCount() + limit - 1) / limit));
    }

    @POST
    @Operation(summary = "Add Do-Not-Call Number", description = "Normalized to E.164; adding a listed number"
            + " answers the existing entry")
    public Uni<DoNotCallNumber> add(@NotNull @Valid AddDoNotCallRequest body) {
        return addDoNotCall.add(caller.principal(), body.phoneNumber(), body.countryCode(), body.reason())
                .map(DoNotCallNumber::of);
    }

    @DELETE
    @Path("/{phone_number}")
    @Operation(summary = "Remove Do-Not-Call Number", description = "404 when the number is not listed")
    public Uni<RemovedResponse> remove(@PathParam("phone_number") String phoneNumber,
            @QueryParam("country_code") @Size(max = 8) String countryCode) {
        return removeDoNotCall.remove(caller.principal(), phoneNumber, countryCode)
                .replaceWith(() -> new RemovedResponse(true, phoneNumber));
    }

    @POST
    @Path("/import")
    @Operation(summary = "Import Do-Not-Call Numbers", description = "Up to 200,000 rows of an uploaded CSV;"
            + " numbers already listed are counted, invalid rows reported")
    public Uni<ImportDoNotCallResponse> importCsv(@NotNull @Valid ImportDoNotCallRequest body) {
        return importDoNotCall.importCsv(caller.principal(), body.fileKey(), body.countryCode(), body.reason())
                .map(r -> new ImportDoNotCallResponse(r.rows(), r.added(), r.alreadyListed(), r.invalid(),
                        r.problems().stream().map(p -> new ImportProblem(p.row(), p.value(), p.reason())).toList()));
    }

    @GET
    @Path("/dispositions")
    @Operation(summary = "Get Do-Not-Call Dispositions", description = "The disposition codes that list the"
            + " customer's number when a call ends with one of them")
    public Uni<DispositionCodes> dispositions() {
        return getDoNotCallDispositions.dispositionCodes(caller.principal()).map(DispositionCodes::new);
    }

    @PUT
    @Path("/dispositions")
    @Operation(summary = "Set Do-Not-Call Dispositions", description = "Replaces the codes (at most 50)")
    public Uni<DispositionCodes> setDispositions(@NotNull @Valid DispositionCodes body) {
        return setDoNotCallDispositions.setDispositionCodes(caller.principal(), body.dispositionCodes())
                .map(DispositionCodes::new);
    }
}
