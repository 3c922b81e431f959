package dev.voiceagent.application.shared;

import io.smallrye.mutiny.Uni;
import java.util.function.Supplier;

/** Out-port: runs the given work in one database transaction (all of it commits, or none). */
public interface UnitOfWork {

    <T> Uni<T> inTransaction(Supplier<Uni<T>> work);
}
