package dev.voiceagent.application.apikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.fakes.InMemoryApiKeyRepository;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.apikey.ApiKey;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ApiKeyServicesTest {

    private final InMemoryApiKeyRepository repository = new InMemoryApiKeyRepository();
    private final Clock clock = Clock.fixed(Instant.parse("2026-11-21T10:00:00Z"), ZoneOffset.UTC);
    private final CreateApiKeyService create = new CreateApiKeyService(repository, new SecureRandom(), clock);
    private final ListApiKeysService list = new ListApiKeysService(repository);
    private final ArchiveApiKeyService archive = new ArchiveApiKeyService(repository, clock);
    private final ReactivateApiKeyService reactivate = new ReactivateApiKeyService(repository);
    private final Principal ann = new Principal(1, 10, Principal.Method.TOKEN);
    private final Principal bob = new Principal(2, 20, Principal.Method.TOKEN);

    @Test
    void createdKeyIsShownOnceAndOnlyItsHashIsStored() {
        CreatedApiKey created = create.create(ann, "ci").await().indefinitely();
        ApiKey stored = repository.keys.get(created.key().id());
        assertThat(stored.keyHash()).isEqualTo(created.secret().hash()).doesNotContain(created.secret().value());
        assertThat(stored.organizationId()).isEqualTo(10);
        assertThat(stored.createdBy()).isEqualTo(1);
    }

    @Test
    void archivedKeysAreHiddenUnlessAskedFor() {
        long first = create.create(ann, "one").await().indefinitely().key().id();
        create.create(ann, "two").await().indefinitely();
        create.create(bob, "bob's").await().indefinitely();
        archive.archive(ann, first).await().indefinitely();
        assertThat(list.list(ann, false).await().indefinitely()).extracting(ApiKey::name).containsExactly("two");
        assertThat(list.list(ann, true).await().indefinitely()).extracting(ApiKey::name).containsExactly("one", "two");
        reactivate.reactivate(ann, first).await().indefinitely();
        assertThat(list.list(ann, false).await().indefinitely()).extracting(ApiKey::name).containsExactly("one", "two");
    }

    @Test
    void anotherOrganizationsKeyIsNotFoundAndStaysUntouched() {
        long bobsKey = create.create(bob, "bob's").await().indefinitely().key().id();
        assertThatThrownBy(() -> archive.archive(ann, bobsKey).await().indefinitely())
                .isInstanceOf(ResourceNotFoundException.class).hasMessage("API key not found");
        assertThatThrownBy(() -> reactivate.reactivate(ann, bobsKey).await().indefinitely())
                .isInstanceOf(ResourceNotFoundException.class);
        assertThat(repository.keys.get(bobsKey).usable()).isTrue();
    }

    @Test
    void archivingTwiceKeepsTheFirstArchiveTime() {
        long id = create.create(ann, "k").await().indefinitely().key().id();
        Instant first = archive.archive(ann, id).await().indefinitely().archivedAt();
        ArchiveApiKeyService later = new ArchiveApiKeyService(repository, Clock.offset(clock, Duration.ofHours(1)));
        assertThat(later.archive(ann, id).await().indefinitely().archivedAt()).isEqualTo(first);
    }
}
