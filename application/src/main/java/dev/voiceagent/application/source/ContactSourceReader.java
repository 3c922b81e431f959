package dev.voiceagent.application.source;

import dev.voiceagent.domain.campaign.ContactSourceCheck;
import io.smallrye.mutiny.Uni;
import java.util.List;

/** Out-port: reads a contact source (a CSV in the object store) row by row into a check, off the event loop. */
public interface ContactSourceReader {

    /** Feeds the header and every row; fails with DomainRuleViolation when the file is missing or not CSV. */
    Uni<Void> read(String sourceKey, ContactSourceCheck check);

    /**
     * Reads the source on a worker thread, calling {@code sink} for the header and then each row in
     * order; the sink may block (it runs on that worker).
     */
    Uni<Void> forEachRow(String sourceKey, RowSink sink);

    /** Receives a source's header, then its rows. */
    interface RowSink {
        void header(List<String> columns);

        void row(List<String> values);

        /** After the last row, still on the reading thread. */
        default void end() {
        }
    }
}
