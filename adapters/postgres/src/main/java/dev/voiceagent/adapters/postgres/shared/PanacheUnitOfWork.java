package dev.voiceagent.adapters.postgres.shared;

import dev.voiceagent.application.shared.UnitOfWork;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Supplier;

/** Joins the current reactive session's transaction, or opens one. */
@ApplicationScoped
public class PanacheUnitOfWork implements UnitOfWork {

    @Override
    public <T> Uni<T> inTransaction(Supplier<Uni<T>> work) {
        return Panache.withTransaction(work);
    }
}
