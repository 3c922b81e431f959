package dev.voiceagent.adapters.rest.folder;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.folder.CreateFolderUseCase;
import dev.voiceagent.application.folder.DeleteFolderUseCase;
import dev.voiceagent.application.folder.ListFoldersUseCase;
import dev.voiceagent.application.folder.RenameFolderUseCase;
import dev.voiceagent.domain.folder.Folder;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Flat folders of workflows. */
@Path("/api/v1/folder")
public class FolderResource {

    public record CreateFolderRequest(@NotBlank @Size(min = 1, max = 100) String name) {
    }

    public record UpdateFolderRequest(@NotBlank @Size(min = 1, max = 100) String name) {
    }

    public record FolderResponse(long id, String name,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt) {

        static FolderResponse of(Folder f) {
            return new FolderResponse(f.id(), f.name(), f.createdAt());
        }
    }

    public record DeleteFolderResponse(boolean success, String message) {
    }

    private final Caller caller;
    private final ListFoldersUseCase list;
    private final CreateFolderUseCase create;
    private final RenameFolderUseCase rename;
    private final DeleteFolderUseCase delete;

    public FolderResource(Caller caller, ListFoldersUseCase list, CreateFolderUseCase create, RenameFolderUseCase rename,
            DeleteFolderUseCase delete) {
        this.caller = caller;
        this.list = list;
        this.create = create;
        this.rename = rename;
        this.delete = delete;
    }

    @GET
    @Path("/")
    public Uni<List<FolderResponse>> list() {
        return list.list(caller.principal()).map(folders -> folders.stream().map(FolderResponse::of).toList());
    }

    @POST
    @Path("/")
    public Uni<FolderResponse> create(@NotNull @Valid CreateFolderRequest body) {
        return create.create(caller.principal(), body.name()).map(FolderResponse::of);
    }

    @PUT
    @Path("/{folder_id}")
    public Uni<FolderResponse> rename(@PathParam("folder_id") long folderId, @NotNull @Valid UpdateFolderRequest body) {
        return rename.rename(caller.principal(), folderId, body.name()).map(FolderResponse::of);
    }

    @DELETE
    @Path("/{folder_id}")
    public Uni<DeleteFolderResponse> delete(@PathParam("folder_id") long folderId) {
        return delete.delete(caller.principal(), folderId)
                .replaceWith(new DeleteFolderResponse(true, "Folder deleted; its workflows are no longer filed"));
    }
}
