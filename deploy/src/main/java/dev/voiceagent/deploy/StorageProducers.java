package dev.voiceagent.deploy;

import dev.voiceagent.adapters.storage.LocalObjectStore;
import dev.voiceagent.adapters.storage.UrlSigner;
import dev.voiceagent.adapters.storage.s3.S3ObjectStore;
import java.net.URI;
import java.time.Clock;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import dev.voiceagent.application.campaign.CampaignRepository;
import dev.voiceagent.application.campaign.CreateSourceDownloadUrlService;
import dev.voiceagent.application.campaign.CreateSourceDownloadUrlUseCase;
import dev.voiceagent.application.workflow.CreateAmbientNoiseUploadUrlService;
import dev.voiceagent.application.workflow.CreateAmbientNoiseUploadUrlUseCase;
import dev.voiceagent.application.workflow.WorkflowRepository;
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
import java.time.Duration;

/** Composition root for object storage. */
@ApplicationScoped
public class StorageProducers {

    /** Signs the local store's URLs with a key generated once per installation and kept in the database. */
    @Produces
    @Singleton
    @Startup
    UrlSigner urlSigner(InstanceKeyring keyring) {
        String key = keyring.get(InstanceKeyring.OBJECT_STORE_SIGNING);
        return new UrlSigner(key.getBytes(StandardCharsets.US_ASCII));
    }

    /** Signs the public links to runs' recordings and transcripts with the installation's link key. */
    @Produces
    @Singleton
    dev.voiceagent.application.workflow.ArtifactLinks artifactLinks(InstanceKeyring keyring) {
        return new dev.voiceagent.adapters.storage.SignedArtifactLinks(
                keyring.get(InstanceKeyring.PUBLIC_LINK_SIGNING).getBytes(StandardCharsets.US_ASCII));
    }

    @Produces
    @Singleton
    dev.voiceagent.application.workflow.RunArtifactService runArtifacts(
            dev.voiceagent.application.workflow.ArtifactLinks links,
            dev.voiceagent.application.workflow.WorkflowRunRepository runs, ObjectStore objects, Clock clock,
            @ConfigProperty(name = "voiceagent.public-links.ttl", defaultValue = "P7D") java.time.Duration ttl) {
        // bean types: PublicArtifactLinksUseCase and DownloadArtifactUseCase
        return new dev.voiceagent.application.workflow.RunArtifactService(links, runs, objects, clock, ttl);
    }

    /**
     * The object store in force: the local filesystem (default; this service signs and serves the
     * URLs) or an S3-compatible bucket (voiceagent.storage.backend=s3 and the voiceagent.storage.s3.* settings).
     */
    @Produces
    @Singleton
    ObjectStore objectStore(LocalObjectStore local, Clock clock,
            @ConfigProperty(name = "voiceagent.storage.backend", defaultValue = "local") String backend,
            @ConfigProperty(name = "voiceagent.storage.s3.endpoint") Optional<URI> endpoint,
            @ConfigProperty(name = "voiceagent.storage.s3.region", defaultValue = "us-east-1") String region,
            @ConfigProperty(name = "voiceagent.storage.s3.bucket") Optional<String> bucket,
            @ConfigProperty(name = "voiceagent.storage.s3.access-key") Optional<String> accessKey,
            @ConfigProperty(name = "voiceagent.storage.s3.secret-key") Optional<String> secretKey) {
        return switch (backend) {
            case "local" -> local;
            case "s3" -> new S3ObjectStore(
                    endpoint.orElseGet(() -> URI.create("https://s3." + region + ".amazonaws.com")), region,
                    bucket.orElseThrow(() -> missing("bucket")), accessKey.orElseThrow(() -> missing("access-key")),
                    secretKey.orElseThrow(() -> missing("secret-key")), clock);
            default -> throw new IllegalStateException("voiceagent.storage.backend must be local or s3, not " + backend);
        };
    }

    private static IllegalStateException missing(String setting) {
        return new IllegalStateException("voiceagent.storage.backend=s3 needs voiceagent.storage.s3." + setting);
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
    CreateAmbientNoiseUploadUrlUseCase ambientNoiseUpload(WorkflowRepository workflows, ObjectStore store) {
        return new CreateAmbientNoiseUploadUrlService(workflows, store);
    }

    @Produces @Singleton
    CreateSourceDownloadUrlUseCase sourceDownload(CampaignRepository campaigns, ObjectStore store) {
        return new CreateSourceDownloadUrlService(campaigns, store);
    }

    @Produces @Singleton
    GetFileMetadataUseCase fileMetadata(ObjectStore store) {
        return new GetFileMetadataService(store);
    }
}
