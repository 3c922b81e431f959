package dev.voiceagent.application.auth;

import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.domain.account.EmailAddress;
import dev.voiceagent.domain.account.Organization;
import dev.voiceagent.domain.account.User;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** Out-port: users and the organizations they belong to. */
public interface AccountRepository {

    Uni<Optional<User>> findUserByEmail(EmailAddress email);

    Uni<Optional<User>> findUserById(long id);

    Uni<Optional<Organization>> findOrganizationById(long id);

    /**
     * Stores a new organization and its first user in one transaction (both or neither).
     * Fails with {@link ConflictException} when the e-mail is taken.
     */
    Uni<User> createUserWithOrganization(User user, Organization organization);
}
