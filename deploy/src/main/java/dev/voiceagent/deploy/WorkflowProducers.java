package dev.voiceagent.deploy;

import dev.voiceagent.application.folder.CreateFolderService;
import dev.voiceagent.application.folder.CreateFolderUseCase;
import dev.voiceagent.application.folder.DeleteFolderService;
import dev.voiceagent.application.folder.DeleteFolderUseCase;
import dev.voiceagent.application.folder.FolderRepository;
import dev.voiceagent.application.folder.ListFoldersService;
import dev.voiceagent.application.folder.ListFoldersUseCase;
import dev.voiceagent.application.folder.RenameFolderService;
import dev.voiceagent.application.folder.RenameFolderUseCase;
import dev.voiceagent.application.workflow.ChangeWorkflowStatusService;
import dev.voiceagent.application.workflow.ChangeWorkflowStatusUseCase;
import dev.voiceagent.application.workflow.CountWorkflowsService;
import dev.voiceagent.application.workflow.CountWorkflowsUseCase;
import dev.voiceagent.application.workflow.CreateDraftService;
import dev.voiceagent.application.workflow.CreateDraftUseCase;
import dev.voiceagent.application.workflow.CreateWorkflowFromDescriptionService;
import dev.voiceagent.application.workflow.CreateWorkflowFromDescriptionUseCase;
import dev.voiceagent.application.workflow.CreateWorkflowService;
import dev.voiceagent.application.workflow.CreateWorkflowUseCase;
import dev.voiceagent.application.workflow.DuplicateTemplateService;
import dev.voiceagent.application.workflow.DuplicateTemplateUseCase;
import dev.voiceagent.application.workflow.DuplicateWorkflowService;
import dev.voiceagent.application.workflow.DuplicateWorkflowUseCase;
import dev.voiceagent.application.workflow.GetWorkflowService;
import dev.voiceagent.application.workflow.GetWorkflowUseCase;
import dev.voiceagent.application.workflow.ListWorkflowVersionsService;
import dev.voiceagent.application.workflow.ListWorkflowVersionsUseCase;
import dev.voiceagent.application.workflow.ListWorkflowsService;
import dev.voiceagent.application.workflow.ListWorkflowsUseCase;
import dev.voiceagent.application.workflow.MoveWorkflowToFolderService;
import dev.voiceagent.application.workflow.MoveWorkflowToFolderUseCase;
import dev.voiceagent.application.workflow.PublishWorkflowService;
import dev.voiceagent.application.workflow.PublishWorkflowUseCase;
import dev.voiceagent.application.workflow.UpdateWorkflowService;
import dev.voiceagent.application.workflow.UpdateWorkflowUseCase;
import dev.voiceagent.application.workflow.ValidateWorkflowService;
import dev.voiceagent.application.workflow.ValidateWorkflowUseCase;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import dev.voiceagent.application.workflow.CreateWorkflowRunService;
import dev.voiceagent.application.workflow.CreateWorkflowRunUseCase;
import dev.voiceagent.application.workflow.ListWorkflowRunsService;
import dev.voiceagent.application.workflow.ListWorkflowRunsUseCase;
import dev.voiceagent.application.workflow.GetWorkflowRunService;
import dev.voiceagent.application.workflow.GetWorkflowRunUseCase;
import dev.voiceagent.application.workflow.ExportWorkflowReportService;
import dev.voiceagent.application.workflow.ExportWorkflowReportUseCase;
import dev.voiceagent.application.workflow.CheckAgentSetupService;
import dev.voiceagent.application.workflow.CheckAgentSetupUseCase;
import dev.voiceagent.application.workflow.PreviewAgentService;
import dev.voiceagent.application.workflow.PreviewAgentUseCase;
import dev.voiceagent.application.workflow.ReviewPilotRunsService;
import dev.voiceagent.application.workflow.ReviewPilotRunsUseCase;
import dev.voiceagent.application.telephony.OutboundReadiness;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/** Composition root for the workflow and folder use cases. */
@ApplicationScoped
public class WorkflowProducers {

    @Produces @Singleton
    CreateWorkflowUseCase createWorkflow(WorkflowRepository workflows, Clock clock) {
        return new CreateWorkflowService(workflows, clock);
    }

    @Produces @Singleton
    CreateWorkflowFromDescriptionUseCase createFromDescription(CreateWorkflowUseCase create) {
        return new CreateWorkflowFromDescriptionService(create);
    }

    @Produces @Singleton
    DuplicateTemplateUseCase duplicateTemplate(CreateWorkflowUseCase create) {
        return new DuplicateTemplateService(create);
    }

    @Produces @Singleton
    GetWorkflowUseCase getWorkflow(WorkflowRepository workflows) {
        return new GetWorkflowService(workflows);
    }

    @Produces @Singleton
    ListWorkflowsUseCase listWorkflows(WorkflowRepository workflows) {
        return new ListWorkflowsService(workflows);
    }

    @Produces @Singleton
    CountWorkflowsUseCase countWorkflows(WorkflowRepository workflows) {
        return new CountWorkflowsService(workflows);
    }

    @Produces @Singleton
    UpdateWorkflowUseCase updateWorkflow(WorkflowRepository workflows, Clock clock) {
        return new UpdateWorkflowService(workflows, clock);
    }

    @Produces @Singleton
    ChangeWorkflowStatusUseCase changeWorkflowStatus(WorkflowRepository workflows) {
        return new ChangeWorkflowStatusService(workflows);
    }

    @Produces @Singleton
    MoveWorkflowToFolderUseCase moveWorkflow(WorkflowRepository workflows, FolderRepository folders) {
        return new MoveWorkflowToFolderService(workflows, folders);
    }

    @Produces @Singleton
    DuplicateWorkflowUseCase duplicateWorkflow(WorkflowRepository workflows, CreateWorkflowUseCase create) {
        return new DuplicateWorkflowService(workflows, create);
    }

    @Produces @Singleton
    ValidateWorkflowUseCase validateWorkflow(WorkflowRepository workflows,
            dev.voiceagent.application.tool.ToolChecks tools) {
        return new ValidateWorkflowService(workflows, tools);
    }

    @Produces @Singleton
    ListWorkflowVersionsUseCase listVersions(WorkflowRepository workflows) {
        return new ListWorkflowVersionsService(workflows);
    }

    @Produces @Singleton
    PublishWorkflowUseCase publishWorkflow(WorkflowRepository workflows,
            dev.voiceagent.application.tool.ToolChecks tools, Clock clock) {
        return new PublishWorkflowService(workflows, tools, clock);
    }

    @Produces @Singleton
    CreateDraftUseCase createDraft(WorkflowRepository workflows, Clock clock) {
        return new CreateDraftService(workflows, clock);
    }

    @Produces @Singleton
    CreateWorkflowRunUseCase createRun(WorkflowRepository workflows, WorkflowRunRepository runs, Clock clock) {
        return new CreateWorkflowRunService(workflows, runs, clock);
    }

    @Produces @Singleton
    ListWorkflowRunsUseCase listRuns(WorkflowRepository workflows, WorkflowRunRepository runs) {
        return new ListWorkflowRunsService(workflows, runs);
    }

    @Produces @Singleton
    GetWorkflowRunUseCase getRun(WorkflowRepository workflows, WorkflowRunRepository runs) {
        return new GetWorkflowRunService(workflows, runs);
    }

    @Produces @Singleton
    ExportWorkflowReportUseCase exportReport(WorkflowRepository workflows, WorkflowRunRepository runs) {
        return new ExportWorkflowReportService(workflows, runs);
    }

    @Produces @Singleton
    CheckAgentSetupUseCase agentSetup(WorkflowRepository workflows, WorkflowRunRepository runs, OutboundReadiness telephony,
            dev.voiceagent.application.tool.ToolChecks tools) {
        return new CheckAgentSetupService(workflows, runs, telephony, tools);
    }

    @Produces @Singleton
    PreviewAgentUseCase agentPreview(WorkflowRepository workflows) {
        return new PreviewAgentService(workflows);
    }

    @Produces @Singleton
    ReviewPilotRunsUseCase pilotReview(WorkflowRepository workflows, WorkflowRunRepository runs) {
        return new ReviewPilotRunsService(workflows, runs);
    }

    @Produces @Singleton
    ListFoldersUseCase listFolders(FolderRepository folders) {
        return new ListFoldersService(folders);
    }

    @Produces @Singleton
    CreateFolderUseCase createFolder(FolderRepository folders, Clock clock) {
        return new CreateFolderService(folders, clock);
    }

    @Produces @Singleton
    RenameFolderUseCase renameFolder(FolderRepository folders) {
        return new RenameFolderService(folders);
    }

    @Produces @Singleton
    DeleteFolderUseCase deleteFolder(FolderRepository folders) {
        return new DeleteFolderService(folders);
    }
}
