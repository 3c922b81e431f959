package dev.voiceagent.deploy;

import dev.voiceagent.adapters.storage.LocalObjectStore;
import dev.voiceagent.adapters.storage.SignedArtifactLinks;
import dev.voiceagent.adapters.storage.UrlSigner;
import dev.voiceagent.adapters.storage.s3.S3ObjectStore;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.workflow.ArtifactLinks;
import dev.voiceagent.application.workflow.RunArtifactService;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;

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
    ArtifactLinks artifactLinks(InstanceKeyring keyring) {
        return new SignedArtifactLinks(
                keyring.get(InstanceKeyring.PUBLIC_LINK_SIGNING).getBytes(StandardCharsets.US_ASCII));
    }

    @Produces
    @Singleton
    RunArtifactService runArtifacts(ArtifactLinks links, WorkflowRunRepository runs, ObjectStore objects, Clock clock,
            VoiceAgentConfig config) {
        // bean types: PublicArtifactLinksUseCase and DownloadArtifactUseCase
        return new RunArtifactService(links, runs, objects, clock, config.publicLinks().ttl());
    }

    /**
     * The object store in force: the local filesystem (default; this service signs and serves the
     * URLs) or an S3-compatible bucket (voiceagent.storage.backend=s3 and the voiceagent.storage.s3.* settings).
     */
    @Produces
    @Singleton
    ObjectStore objectStore(LocalObjectStore local, Clock clock, VoiceAgentConfig config) {
        VoiceAgentConfig.Storage.S3 s3 = config.storage().s3();
        return switch (config.storage().backend()) {
            case "local" -> local;
            case "s3" -> new S3ObjectStore(
                    s3.endpoint().orElseGet(() -> URI.create("https://s3." + s3.region() + ".amazonaws.com")),
                    s3.region(), s3.bucket().orElseThrow(() -> missing("bucket")),
                    s3.accessKey().orElseThrow(() -> missing("access-key")),
                    s3.secretKey().orElseThrow(() -> missing("secret-key")), clock);
            default -> throw new IllegalStateException("voiceagent.storage.backend must be local or s3, not "
                    + config.storage().backend());
        };
    }

    private static IllegalStateException missing(String setting) {
        return new IllegalStateException("voiceagent.storage.backend=s3 needs voiceagent.storage.s3." + setting);
    }
}
