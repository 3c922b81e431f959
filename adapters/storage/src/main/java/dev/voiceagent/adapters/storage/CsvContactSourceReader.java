package dev.voiceagent.adapters.storage;

import de.siegmar.fastcsv.reader.CsvParseException;
import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import dev.voiceagent.application.source.ContactSourceReader;
import dev.voiceagent.domain.campaign.ContactSourceCheck;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.application.storage.ObjectStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * CSV with FastCSV (RFC 4180: quotes, embedded commas and newlines, CRLF), streamed from the
 * store on a worker thread: one record in memory at a time.
 */
@ApplicationScoped
public class CsvContactSourceReader implements ContactSourceReader {

    private final ObjectStore store;
    private final Vertx vertx;

    public CsvContactSourceReader(ObjectStore store, Vertx vertx) {
        this.store = store;
        this.vertx = vertx;
    }

    @Override
    public Uni<Void> read(String sourceKey, ContactSourceCheck check) {
        return forEachRow(sourceKey, new RowSink() {
            @Override
            public void header(List<String> columns) {
                check.header(columns);
            }

            @Override
            public void row(List<String> values) {
                check.row(values);
            }
        });
    }

    @Override
    public Uni<Void> forEachRow(String sourceKey, RowSink sink) {
        return store.open(sourceKey).chain(found -> {
            InputStream in = found.orElseThrow(() -> new DomainRuleViolation("Failed to access CSV file: " + sourceKey));
            return vertx.executeBlocking(Uni.createFrom().item(() -> {
                feed(in, sink);
                return null;
            }), false).replaceWithVoid();
        });
    }

    static void feed(InputStream in, RowSink check) {
        try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8);
                CsvReader<CsvRecord> csv = CsvReader.builder().skipEmptyLines(false).allowExtraFields(true)
                        .allowMissingFields(true).ofCsvRecord(reader)) {
            boolean first = true;
            for (CsvRecord record : csv) {
                if (first) {
                    check.header(record.getFields());
                    first = false;
                } else {
                    check.row(record.getFields());
                }
            }
            check.end();
        } catch (CsvParseException e) {
            throw new DomainRuleViolation("The CSV file could not be read: " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
