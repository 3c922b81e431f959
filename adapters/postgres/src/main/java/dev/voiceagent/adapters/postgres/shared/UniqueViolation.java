package dev.voiceagent.adapters.postgres.shared;

import io.vertx.pgclient.PgException;
import org.hibernate.exception.ConstraintViolationException;

/** Recognises PostgreSQL's unique_violation (SQLSTATE 23505) in whatever wrapper the driver used. */
public final class UniqueViolation {

    private UniqueViolation() {
    }

    public static boolean of(Throwable failure, String constraint) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ConstraintViolationException hibernate
                    && "23505".equals(hibernate.getSQLState())
                    && (constraint == null || constraint.equals(hibernate.getConstraintName()))) {
                return true;
            }
            if (t instanceof PgException pg && "23505".equals(pg.getSqlState())
                    && (constraint == null || constraint.equals(pg.getConstraint()))) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
