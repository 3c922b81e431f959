package dev.voiceagent.adapters.rest.auth;

import dev.voiceagent.application.auth.GetCurrentUserUseCase;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

@Path("/api/v1/user/auth/user")
public class UserResource {

    public record AuthUserResponse(long id, boolean isSuperuser) {
    }

    private final GetCurrentUserUseCase currentUser;
    private final Caller caller;

    public UserResource(GetCurrentUserUseCase currentUser, Caller caller) {
        this.currentUser = currentUser;
        this.caller = caller;
    }

    @GET
    public Uni<AuthUserResponse> authUser() {
        return currentUser.currentUser(caller.principal()).map(user -> new AuthUserResponse(user.id(), user.superuser()));
    }
}
