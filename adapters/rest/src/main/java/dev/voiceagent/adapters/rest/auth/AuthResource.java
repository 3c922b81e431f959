package dev.voiceagent.adapters.rest.auth;

import dev.voiceagent.application.auth.AuthSession;
import dev.voiceagent.application.auth.GetCurrentUserUseCase;
import dev.voiceagent.application.auth.LogInUseCase;
import dev.voiceagent.application.auth.SignUpCommand;
import dev.voiceagent.application.auth.SignUpUseCase;
import dev.voiceagent.domain.account.EmailAddress;
import dev.voiceagent.domain.account.User;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Local e-mail/password accounts for self-hosting: how the first API key is obtained. */
@Path("/api/v1/auth")
@Tag(name = "auth")
public class AuthResource {

    public record SignupRequest(
            @NotBlank @Email(regexp = "[^@\\s]+@[^@\\s]+\\.[^@\\s]+") String email,
            @NotNull @Size(min = 8, message = "String should have at least 8 characters") String password,
            String name) {
    }

    public record LoginRequest(@NotBlank String email, @NotNull String password) {
    }

    public record UserResponse(Long id, String email, String name, Long organizationId, String providerId) {

        static UserResponse of(User user) {
            return new UserResponse(user.id(), user.email().value(), user.name(), user.organizationId(), user.providerId());
        }
    }

    public record AuthResponse(String token, UserResponse user) {

        static AuthResponse of(AuthSession session) {
            return new AuthResponse(session.token(), UserResponse.of(session.user()));
        }
    }

    private final SignUpUseCase signUp;
    private final LogInUseCase logIn;
    private final GetCurrentUserUseCase currentUser;
    private final Caller caller;

    public AuthResource(SignUpUseCase signUp, LogInUseCase logIn, GetCurrentUserUseCase currentUser, Caller caller) {
        this.signUp = signUp;
        this.logIn = logIn;
        this.currentUser = currentUser;
        this.caller = caller;
    }

    @POST
    @Path("/signup")
    @PublicEndpoint
    public Uni<AuthResponse> signup(@NotNull @Valid SignupRequest body) {
        return signUp.signUp(new SignUpCommand(new EmailAddress(body.email()), body.password(), body.name()))
                .map(AuthResponse::of);
    }

    @POST
    @Path("/login")
    @PublicEndpoint
    public Uni<AuthResponse> login(@NotNull @Valid LoginRequest body) {
        return logIn.logIn(body.email(), body.password()).map(AuthResponse::of);
    }

    @GET
    @Path("/me")
    public Uni<UserResponse> me() {
        return currentUser.currentUser(caller.principal()).map(UserResponse::of);
    }
}
