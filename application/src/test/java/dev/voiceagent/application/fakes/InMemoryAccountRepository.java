package dev.voiceagent.application.fakes;

import dev.voiceagent.application.auth.AccountRepository;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.domain.account.EmailAddress;
import dev.voiceagent.domain.account.Organization;
import dev.voiceagent.domain.account.User;
import io.smallrye.mutiny.Uni;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

public class InMemoryAccountRepository implements AccountRepository {

    public final Map<Long, User> users = new HashMap<>();
    public final Map<Long, Organization> organizations = new HashMap<>();
    private long nextId = 1;

    @Override
    public Uni<Optional<User>> findUserByEmail(EmailAddress email) {
        return Uni.createFrom().item(users.values().stream().filter(u -> u.email().equals(email)).findFirst());
    }

    @Override
    public Uni<Optional<User>> findUserById(long id) {
        return Uni.createFrom().item(Optional.ofNullable(users.get(id)));
    }

    @Override
    public Uni<Optional<Organization>> findOrganizationById(long id) {
        return Uni.createFrom().item(users.values().stream().filter(u -> u.organizationId() != null
                && u.organizationId() == id).findFirst().map(u -> new Organization(id, "org_" + u.providerId(),
                u.createdAt())));
    }

    @Override
    public Uni<User> createUserWithOrganization(User user, Organization organization) {
        if (users.values().stream().anyMatch(u -> u.email().equals(user.email()))) {
            return Uni.createFrom().failure(new ConflictException("Email already registered"));
        }
        long orgId = nextId++;
        organizations.put(orgId, new Organization(orgId, organization.providerId(), organization.createdAt()));
        User stored = new User(nextId++, user.email(), user.name(), user.providerId(), orgId, user.passwordHash(),
                user.superuser(), user.createdAt());
        users.put(stored.id(), stored);
        return Uni.createFrom().item(stored);
    }
}
