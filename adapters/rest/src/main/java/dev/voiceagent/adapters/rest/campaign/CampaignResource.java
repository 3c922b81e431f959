package dev.voiceagent.adapters.rest.campaign;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.idempotency.Idempotency;
import dev.voiceagent.adapters.rest.campaign.CampaignResponses.CampaignProgressResponse;
import dev.voiceagent.adapters.rest.campaign.CampaignResponses.CampaignResponse;
import dev.voiceagent.adapters.rest.campaign.CampaignResponses.CampaignsResponse;
import dev.voiceagent.adapters.rest.workflow.ReportDownloads;
import dev.voiceagent.adapters.rest.workflow.RunPageParameters;
import dev.voiceagent.adapters.rest.workflow.WorkflowRunResponses.WorkflowRunResponse;
import dev.voiceagent.application.campaign.CreateCampaignCommand;
import dev.voiceagent.application.campaign.CreateCampaignUseCase;
import dev.voiceagent.application.campaign.CreateSourceDownloadUrlUseCase;
import dev.voiceagent.application.campaign.ExportCampaignReportUseCase;
import dev.voiceagent.application.campaign.GetCampaignProgressUseCase;
import dev.voiceagent.application.campaign.GetCampaignUseCase;
import dev.voiceagent.application.campaign.ListCampaignRunsUseCase;
import dev.voiceagent.application.campaign.ListCampaignsUseCase;
import dev.voiceagent.application.campaign.PauseCampaignUseCase;
import dev.voiceagent.application.campaign.RedialCampaignCommand;
import dev.voiceagent.application.campaign.RedialCampaignUseCase;
import dev.voiceagent.application.campaign.ResumeCampaignUseCase;
import dev.voiceagent.application.campaign.StartCampaignUseCase;
import dev.voiceagent.application.campaign.UpdateCampaignCommand;
import dev.voiceagent.application.campaign.UpdateCampaignUseCase;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.RestMulti;

@Path("/api/v1/campaign")
public class CampaignResource {

    private final ListCampaignsUseCase list;
    private final GetCampaignUseCase get;
    private final CreateCampaignUseCase create;
    private final StartCampaignUseCase start;
    private final PauseCampaignUseCase pause;
    private final ResumeCampaignUseCase resume;
    private final CreateSourceDownloadUrlUseCase sourceDownload;
    private final GetCampaignProgressUseCase progress;
    private final UpdateCampaignUseCase update;
    private final ListCampaignRunsUseCase runs;
    private final ExportCampaignReportUseCase report;
    private final RedialCampaignUseCase redial;
    private final ObjectMapper json;
    private final Idempotency idempotency;
    private final Caller caller;

    public record CampaignSourceDownloadResponse(String downloadUrl, long expiresIn) {
    }

    @Schema(name = "CampaignRunsResponse",
            description = "Paginated response for campaign workflow runs")
    public record CampaignRunsResponse(
            @Schema(required = true) List<WorkflowRunResponse> runs,
            @Schema(required = true) long totalCount,
            @Schema(required = true) int page,
            @Schema(required = true) int limit,
            @Schema(required = true) long totalPages) {
    }

    public CampaignResource(ListCampaignsUseCase list, GetCampaignUseCase get, CreateCampaignUseCase create,
            StartCampaignUseCase start, PauseCampaignUseCase pause, ResumeCampaignUseCase resume,
            CreateSourceDownloadUrlUseCase sourceDownload, GetCampaignProgressUseCase progress,
            UpdateCampaignUseCase update, ListCampaignRunsUseCase runs, ExportCampaignReportUseCase report,
            RedialCampaignUseCase redial, ObjectMapper json, Idempotency idempotency, Caller caller) {
        this.idempotency = idempotency;
        this.runs = runs;
        this.redial = redial;
        this.report = report;
        this.json = json;
        this.sourceDownload = sourceDownload;
        this.update = update;
        this.progress = progress;
        this.list = list;
        this.get = get;
        this.create = create;
        this.start = start;
        this.pause = pause;
        this.resume = resume;
        this.caller = caller;
    }

    @GET
    @Path("/{campaign_id}/source-download-url")
    public Uni<CampaignSourceDownloadResponse> sourceDownloadUrl(@PathParam("campaign_id") long campaignId) {
        return sourceDownload.create(caller.principal(), campaignId).map(url -> new CampaignSourceDownloadResponse(url,
                CreateSourceDownloadUrlUseCase.VALID_FOR.toSeconds()));
    }

    @GET
    @Path("/{campaign_id}/runs")
    @Operation(summary = "Get Campaign Runs", description = "Get campaign workflow runs with pagination, filters and sorting")
    public Uni<CampaignRunsResponse> runs(@PathParam("campaign_id") long campaignId,
            @QueryParam("page") @DefaultValue("1") @Min(1) int page,
            @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(100) int limit,
            @QueryParam("filters") String filters,
            @QueryParam("sort_by") @DefaultValue("created_at") String sortBy,
            @QueryParam("sort_order") @DefaultValue("desc") String sortOrder) {
        RunPageParameters params = RunPageParameters.parse(json, page, limit, filters, sortBy, sortOrder);
        return runs.list(caller.principal(), campaignId, params.query()).map(result -> new CampaignRunsResponse(
                result.runs().stream().map(WorkflowRunResponse::of).toList(), result.totalCount(), page, limit,
                RunPageParameters.totalPages(result.totalCount(), limit)));
    }

    @GET
    @Path("/{campaign_id}/report")
    @Produces("text/csv")
    @Operation(summary = "Get Campaign Report", description = "CSV attachment campaign_<id>_report.csv of the campaign's"
            + " finished calls, newest first, streamed; start_date and end_date (ISO date-time or date) bound created_at inclusively")
    @APIResponse(responseCode = "200",
            description = "CSV attachment campaign_<id>_report.csv, streamed",
            content = @Content(mediaType = "text/csv"))
    public RestMulti<String> report(@PathParam("campaign_id") long campaignId,
            @QueryParam("start_date") String startDate, @QueryParam("end_date") String endDate) {
        return ReportDownloads.csvAttachment(report.export(caller.principal(), campaignId,
                ReportDownloads.date("start_date", startDate, false), ReportDownloads.date("end_date", endDate, true)),
                "campaign_" + campaignId + "_report.csv");
    }

    @GET
    @Path("/{campaign_id}/progress")
    @Operation(summary = "Get Campaign Progress", description = "Contacts in a final state, failed calls, the source import and the concurrency cap in force")
    public Uni<CampaignProgressResponse> progress(@PathParam("campaign_id") long campaignId) {
        return progress.progress(caller.principal(), campaignId)
                .map(p -> CampaignProgressResponse.of(p.progress(), p.dispatch()));
    }

    @POST
    @Path("/{campaign_id}/redial")
    @Operation(summary = "Redial Campaign", description = "A new campaign for the contacts of a completed campaign whose"
            + " last call ended in voicemail, no answer or busy (as selected); at most one redial per campaign")
    public Uni<CampaignResponse> redial(@PathParam("campaign_id") long campaignId,
            @NotNull @Valid CampaignRequests.RedialCampaignRequest body,
            @HeaderParam(Idempotency.HEADER) String idempotencyKey) {
        return idempotency.run(caller.principal(), idempotencyKey, "redial:" + campaignId, body, CampaignResponse.class,
                () -> redial.redial(new RedialCampaignCommand(caller.principal(), campaignId, body.name(),
                        body.voicemail(), body.noAnswer(), body.busy(), CampaignRequests.retry(body.retryConfig())))
                        .map(CampaignResponse::of));
    }

    @POST
    @Path("/{campaign_id}/start")
    public Uni<CampaignResponse> start(@PathParam("campaign_id") long campaignId,
            @HeaderParam(Idempotency.HEADER) String idempotencyKey) {
        return idempotency.run(caller.principal(), idempotencyKey, "start:" + campaignId, null, CampaignResponse.class,
                () -> start.start(caller.principal(), campaignId).map(CampaignResponse::of));
    }

    @POST
    @Path("/{campaign_id}/pause")
    public Uni<CampaignResponse> pause(@PathParam("campaign_id") long campaignId) {
        return pause.pause(caller.principal(), campaignId).map(CampaignResponse::of);
    }

    @POST
    @Path("/{campaign_id}/resume")
    public Uni<CampaignResponse> resume(@PathParam("campaign_id") long campaignId,
            @HeaderParam(Idempotency.HEADER) String idempotencyKey) {
        return idempotency.run(caller.principal(), idempotencyKey, "resume:" + campaignId, null, CampaignResponse.class,
                () -> resume.resume(caller.principal(), campaignId).map(CampaignResponse::of));
    }

    @POST
    @Path("/create")
    public Uni<CampaignResponse> create(@NotNull @Valid CampaignRequests.CreateCampaignRequest body,
            @HeaderParam(Idempotency.HEADER) String idempotencyKey) {
        return idempotency.run(caller.principal(), idempotencyKey, "create-campaign", body, CampaignResponse.class,
                () -> create.create(new CreateCampaignCommand(caller.principal(), body.name(), body.workflowId(),
                        body.sourceType(), body.sourceId(), body.telephonyConfigurationId(),
                        CampaignRequests.retry(body.retryConfig()), body.maxConcurrency(),
                        CampaignRequests.schedule(body.scheduleConfig()),
                        CampaignRequests.breaker(body.circuitBreaker())))
                        .map(CampaignResponse::of));
    }

    /** Spec 4.1: answered at /api/v1/campaign/ and /api/v1/campaign alike (no redirect). */
    @GET
    @Path("/")
    @Operation(operationId = "get_campaigns_api_v1_campaign__get", summary = "Get Campaigns",
            description = "Get campaigns for user's organization")
    @Produces(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "200", description = "Successful Response",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = CampaignsResponse.class)))
    public Uni<byte[]> list() {
        // written straight from the views by the streaming generator: the most polled operation (see CampaignListJson)
        return list.list(caller.principal()).map(views -> CampaignListJson.write(json.getFactory(), views));
    }

    @GET
    @Path("/{campaign_id}")
    @Operation(operationId = "get_campaign_api_v1_campaign__campaign_id__get", summary = "Get Campaign",
            description = "Get campaign details")
    public Uni<CampaignResponse> get(@PathParam("campaign_id") long campaignId) {
        return get.get(caller.principal(), campaignId).map(CampaignResponse::of);
    }

    @PATCH
    @Path("/{campaign_id}")
    @Operation(summary = "Update Campaign", description = "Change the name, retry, concurrency, schedule or circuit-breaker"
            + " settings of a campaign that is not completed or failed")
    public Uni<CampaignResponse> update(@PathParam("campaign_id") long campaignId,
            @NotNull @Valid CampaignRequests.UpdateCampaignRequest body) {
        return update.update(new UpdateCampaignCommand(caller.principal(), campaignId, body.name(),
                CampaignRequests.retry(body.retryConfig()), body.maxConcurrency(),
                CampaignRequests.schedule(body.scheduleConfig()), CampaignRequests.breaker(body.circuitBreaker())))
                .map(CampaignResponse::of);
    }
}
