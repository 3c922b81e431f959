package dev.voiceagent.adapters.scheduler;

import dev.voiceagent.application.knowledge.KnowledgeUseCases.ProcessDocumentsUseCase;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * The knowledge base's processing on every replica: each tick claims documents one at a time under a lease (the
 * database decides who gets which) and processes up to {@link #PER_TICK} of them.
 */
@ApplicationScoped
public class KnowledgeTicks {

    static final int PER_TICK = 5;
    private static final Logger LOG = Logger.getLogger(KnowledgeTicks.class);

    private final ProcessDocumentsUseCase documents;

    public KnowledgeTicks(ProcessDocumentsUseCase documents) {
        this.documents = documents;
    }

    /** Upload URLs last 30 minutes: a day later, an upload never submitted is forgotten (any replica; idempotent). */
    @Scheduled(identity = "knowledge-abandoned-uploads", every = "${voiceagent.knowledge.purge-every:1h}",
            delayed = "1m", concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> purgeAbandonedUploads() {
        return documents.purgeAbandonedUploads(Duration.ofDays(1)).invoke(purged -> {
            if (purged > 0) {
                LOG.infof("forgot %d knowledge uploads never submitted", purged);
            }
        }).onFailure().invoke(f -> TickFailures.log(LOG, "knowledge upload purge", f))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    @Scheduled(identity = "knowledge-documents", every = "${voiceagent.knowledge.process-every:2s}", delayed = "5s",
            concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> processDocuments() {
        return Multi.createBy().repeating().uni(documents::processNext).whilst(processed -> processed)
                .select().first(PER_TICK).collect().last()
                .onFailure().invoke(f -> TickFailures.log(LOG, "knowledge processing tick", f))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
