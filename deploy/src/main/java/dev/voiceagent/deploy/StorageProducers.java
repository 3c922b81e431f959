package dev.voiceagent.deploy;

import dev.voiceagent.adapters.storage.UrlSigner;
import dev.voiceagent.application.shared.InstanceSecretRepository;
import dev.voiceagent.application.storage.CreateDownloadUrlService;
import dev.voiceagent.application.storage.CreateDownloadUrlUseCase;
import dev.voiceagent.application.storage.CreateUploadUrlService;
import dev.voiceagent.application.storage.CreateUploadUrlUseCase;
import dev.voiceagent.application.storage.GetFileMetadataService;
import dev.voiceagent.application.storage.GetFileMetadataUseCase;
import dev.voiceagent.application.storage.ObjectStore;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;

/** Composition root for object storage. */
@ApplicationScoped
public class StorageProducers {

    /** Signs the local store's URLs with a key generated once per installation and kept in the database. */
    @Produces
    @Singleton
    @Startup
    UrlSigner urlSigner(InstanceSecretRepository secrets, SecureRandom random) {
        String key = InstanceKeys.getOrCreate(secrets, random, "object_store_signing_key", 32);
        return new UrlSigner(key.getBytes(StandardCharsets.US_ASCII));
    }

    @Produces @Singleton
    CreateUploadUrlUseCase createUploadUrl(ObjectStore store) {
        return new CreateUploadUrlService(store);
    }

    @Produces @Singleton
    CreateDownloadUrlUseCase createDownloadUrl(ObjectStore store) {
        return new CreateDownloadUrlService(store);
    }

    @Produces @Singleton
    GetFileMetadataUseCase fileMetadata(ObjectStore store) {
        return new GetFileMetadataService(store);
    }
}
