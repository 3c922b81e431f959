package dev.voiceagent.adapters.postgres.account;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.UniqueViolation;
import dev.voiceagent.application.auth.AccountRepository;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.domain.account.EmailAddress;
import dev.voiceagent.domain.account.Organization;
import dev.voiceagent.domain.account.User;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

@DatabaseAccess
@ApplicationScoped
public class PostgresAccountRepository implements AccountRepository {

    static final String EMAIL_TAKEN = "Email already registered";

    @Override
    @WithSession
    public Uni<Optional<User>> findUserByEmail(EmailAddress email) {
        return UserEntity.<UserEntity>find("email", email.value()).firstResult()
                .map(entity -> Optional.ofNullable(entity).map(PostgresAccountRepository::toDomain));
    }

    @Override
    @WithSession
    public Uni<Optional<User>> findUserById(long id) {
        return UserEntity.<UserEntity>findById(id)
                .map(entity -> Optional.ofNullable(entity).map(PostgresAccountRepository::toDomain));
    }

    @Override
    @WithSession
    public Uni<Optional<Organization>> findOrganizationById(long id) {
        return OrganizationEntity.<OrganizationEntity>findById(id).map(entity -> Optional.ofNullable(entity)
                .map(e -> new Organization(e.id, e.providerId, e.createdAt)));
    }

    @Override
    @WithTransaction
    public Uni<User> createUserWithOrganization(User user, Organization organization) {
        OrganizationEntity org = new OrganizationEntity();
        org.providerId = organization.providerId();
        org.createdAt = organization.createdAt();
        return org.<OrganizationEntity>persist().chain(saved -> {
            UserEntity entity = new UserEntity();
            entity.email = user.email().value();
            entity.name = user.name();
            entity.providerId = user.providerId();
            entity.selectedOrganizationId = saved.id;
            entity.passwordHash = user.passwordHash();
            entity.superuser = user.superuser();
            entity.createdAt = user.createdAt();
            return entity.<UserEntity>persistAndFlush();
        }).map(PostgresAccountRepository::toDomain)
                .onFailure(failure -> UniqueViolation.of(failure, "users_email_key"))
                .transform(failure -> new ConflictException(EMAIL_TAKEN));
    }

    static User toDomain(UserEntity entity) {
        return new User(entity.id, new EmailAddress(entity.email), entity.name, entity.providerId,
                entity.selectedOrganizationId, entity.passwordHash, entity.superuser, entity.createdAt);
    }
}
