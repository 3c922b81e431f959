package dev.voiceagent.application.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.fakes.FakeSecurity;
import dev.voiceagent.application.fakes.InMemoryAccountRepository;
import dev.voiceagent.application.fakes.InMemoryApiKeyRepository;
import dev.voiceagent.application.fakes.InMemoryServiceKeyRepository;
import dev.voiceagent.application.servicekey.ServiceKeyService;
import dev.voiceagent.application.shared.AuthenticationException;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.support.MutableClock;
import dev.voiceagent.domain.account.EmailAddress;
import dev.voiceagent.domain.account.Organization;
import dev.voiceagent.domain.account.User;
import dev.voiceagent.domain.apikey.ApiKey;
import dev.voiceagent.domain.apikey.ApiKeySecret;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AuthenticateServiceTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private final InMemoryApiKeyRepository apiKeys = new InMemoryApiKeyRepository();
    private final InMemoryServiceKeyRepository serviceKeys = new InMemoryServiceKeyRepository();
    private final InMemoryAccountRepository accounts = new InMemoryAccountRepository();
    private final FakeSecurity.Tokens tokens = new FakeSecurity.Tokens();
    private MutableClock clock;
    private AuthenticateService service;
    private User owner;
    private User other;
    private ApiKeySecret secret;

    @BeforeEach
    void setUp() {
        clock = new MutableClock(T0);
        service = new AuthenticateService(apiKeys, serviceKeys, accounts, tokens, clock);
        owner = signUp("owner@x.io");
        other = signUp("other@x.io");
        secret = ApiKeySecret.generate(new SecureRandom());
        apiKeys.insert(ApiKey.issue(owner.organizationId(), owner.id(), "ci", secret, T0)).await().indefinitely();
    }

    private User signUp(String email) {
        User user = User.signUp(new EmailAddress(email), null, "hash:pw", T0, UUID.randomUUID());
        return accounts.createUserWithOrganization(user, Organization.forNewUser(user.providerId(), T0)).await().indefinitely();
    }

    private Principal authenticate(String apiKey, String authorization) {
        return service.authenticate(new Credentials(apiKey, authorization)).await().indefinitely();
    }

    @Test
    void apiKeyResolvesToItsCreatorInItsOrganization() {
        Principal principal = authenticate(secret.value(), null);
        assertThat(principal.userId()).isEqualTo(owner.id());
        assertThat(principal.organizationId()).isEqualTo(owner.organizationId());
        assertThat(principal.method()).isEqualTo(Principal.Method.API_KEY);
    }

    @Test
    void aServiceKeyAuthenticatesUntilItExpiresOrIsArchived() {
        var keys = new ServiceKeyService(serviceKeys, new SecureRandom(), clock);
        Principal creator = new Principal(owner.id(), owner.organizationId(), Principal.Method.TOKEN);
        var created = keys.create(creator, "runtime", 2).await().indefinitely();
        assertThat(created.rawKey()).startsWith("dgs_");
        Principal principal = authenticate(created.rawKey(), null);
        assertThat(principal.organizationId()).isEqualTo(owner.organizationId());
        assertThat(principal.method()).isEqualTo(Principal.Method.SERVICE_KEY);
        clock.advance(Duration.ofDays(2));
        assertThatThrownBy(() -> authenticate(created.rawKey(), null)).isInstanceOf(AuthenticationException.class)
                .hasMessage("Invalid or expired API key");
        assertThatThrownBy(() -> keys.reactivate(creator, created.key().id()).await().indefinitely())
                .hasMessageContaining("expired");
        var second = keys.create(creator, "ci", null).await().indefinitely();
        assertThat(authenticate(second.rawKey(), null).userId()).isEqualTo(owner.id());
        keys.archive(creator, second.key().id()).await().indefinitely();
        assertThatThrownBy(() -> authenticate(second.rawKey(), null)).isInstanceOf(AuthenticationException.class);
        keys.reactivate(creator, second.key().id()).await().indefinitely();
        assertThat(authenticate(second.rawKey(), null).userId()).isEqualTo(owner.id());
        // another organization's key is not found
        Principal stranger = new Principal(other.id(), other.organizationId(), Principal.Method.TOKEN);
        assertThatThrownBy(() -> keys.archive(stranger, second.key().id()).await().indefinitely())
                .hasMessage("Service key not found");
    }

    @Test
    void apiKeyWinsOverAValidTokenOfAnotherUser() {
        Principal principal = authenticate(secret.value(), "Bearer token-for-" + other.id());
        assertThat(principal.organizationId()).isEqualTo(owner.organizationId());
    }

    @Test
    void aBadApiKeyIsRefusedEvenWhenAValidTokenIsSent() {
        assertThatThrownBy(() -> authenticate("dgr_nope", "token-for-" + other.id()))
                .isInstanceOf(AuthenticationException.class).hasMessage("Invalid or expired API key");
    }

    @Test
    void missingCredentialsAreRefused() {
        assertThatThrownBy(() -> authenticate(null, null)).hasMessage("Authorization header required");
        assertThatThrownBy(() -> authenticate(null, "  ")).hasMessage("Authorization header required");
    }

    @Test
    void anArchivedKeyIsRefusedOnTheNextRequestAndWorksAfterReactivation() {
        authenticate(secret.value(), null);
        ApiKey key = apiKeys.keys.values().iterator().next();
        apiKeys.update(key.archive(T0));
        assertThatThrownBy(() -> authenticate(secret.value(), null)).hasMessage("Invalid or expired API key");
        apiKeys.update(apiKeys.keys.get(key.id()).reactivate());
        assertThat(authenticate(secret.value(), null).userId()).isEqualTo(owner.id());
    }

    @Test
    void lastUsedIsWrittenOncePerMinuteNotOnEveryRequest() {
        authenticate(secret.value(), null);
        authenticate(secret.value(), null);
        clock.set(T0.plusSeconds(30));
        authenticate(secret.value(), null);
        assertThat(apiKeys.recordedUses).hasValue(1);
        clock.set(T0.plusSeconds(61));
        authenticate(secret.value(), null);
        assertThat(apiKeys.recordedUses).hasValue(2);
    }

    @Test
    void tokensWorkWithOrWithoutBearerPrefix() {
        assertThat(authenticate(null, "token-for-" + other.id()).userId()).isEqualTo(other.id());
        assertThat(authenticate(null, "Bearer token-for-" + other.id()).organizationId()).isEqualTo(other.organizationId());
        assertThat(authenticate(null, "bearer   token-for-" + other.id()).method()).isEqualTo(Principal.Method.TOKEN);
    }

    @Test
    void expiredOrForeignTokensAndDeletedUsersAreRefused() {
        assertThatThrownBy(() -> authenticate(null, "Bearer garbage")).hasMessage("Invalid or expired token");
        tokens.expiresAt = T0;
        assertThatThrownBy(() -> authenticate(null, "token-for-" + owner.id())).hasMessage("Invalid or expired token");
        tokens.expiresAt = Instant.MAX;
        assertThatThrownBy(() -> authenticate(null, "token-for-999")).hasMessage("User not found");
    }
}
