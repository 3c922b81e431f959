package dev.voiceagent.adapters.postgres.docs;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.Rows;
import dev.voiceagent.application.docs.DocsIndex;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The documentation passages in PostgreSQL: replaced under a transaction-scoped advisory lock when the version
 * changes (replicas starting together write once), searched with an OR of the question's words (ts_rank_cd, the
 * title weighted above the body).
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresDocsIndex implements DocsIndex {

    private final Pool pool;

    public PostgresDocsIndex(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Boolean> replaceAll(String version, List<Passage> passages) {
        return pool.withTransaction(tx -> tx.query("SELECT pg_advisory_xact_lock(hashtext('docs_passages'))").execute()
                .chain(() -> tx.query("SELECT version FROM docs_index_state").execute())
                .chain(state -> {
                    if (state.size() > 0 && version.equals(state.iterator().next().getString("version"))) {
                        return Uni.createFrom().item(false);
                    }
                    List<Tuple> batch = new ArrayList<>();
                    passages.forEach(p -> batch.add(Tuple.of(p.source(), p.title(), p.text())));
                    return tx.query("DELETE FROM docs_passages").execute()
                            .chain(() -> batch.isEmpty() ? Uni.createFrom().voidItem()
                                    : tx.preparedQuery("""
                                            INSERT INTO docs_passages (source, title, body)
                                            VALUES ($1, $2, $3)""").executeBatch(batch).replaceWithVoid())
                            .chain(() -> tx.preparedQuery("""
                                    INSERT INTO docs_index_state (version, indexed_at)
                                    VALUES ($1, now()) ON CONFLICT (singleton) DO UPDATE SET version = excluded.version,
                                    indexed_at = excluded.indexed_at""").execute(Tuple.of(version)))
                            .replaceWith(true);
                }));
    }

    @Override
    public Uni<List<Found>> search(String question, int limit) {
        Set<String> words = new LinkedHashSet<>();
        for (String w : question.toLowerCase(Locale.ROOT).split("[^a-z0-9_]+")) {
            if (w.length() >= 2 && words.size() < 30) {
                words.add(w);
            }
        }
        if (words.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        // each word through the English configuration (stop words drop out), OR-ed; a passage that has more of the
        // question's words ranks first, then by ts_rank (title above body, normalized by length)
        String query = String.join(" | ", words);
        return pool.preparedQuery("""
                        SELECT source, title, body, (SELECT count(*) FROM unnest($3::text[]) w
                        WHERE search @@ to_tsquery('english', w)) + ts_rank('{0.1, 0.2, 0.4, 1.0}', search, q, 1)
                        AS rank FROM docs_passages, to_tsquery('english', $1) q WHERE search @@ q
                        ORDER BY rank DESC, id LIMIT $2""")
                .execute(Tuple.of(query, limit, words.toArray(String[]::new)))
                .map(rows -> Rows.list(rows, r -> new Found(new Passage(r.getString("source"), r.getString("title"),
                        r.getString("body")), r.getDouble("rank"))));
    }
}
