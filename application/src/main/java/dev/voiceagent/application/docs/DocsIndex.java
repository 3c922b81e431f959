package dev.voiceagent.application.docs;

import io.smallrye.mutiny.Uni;
import java.util.List;

/** Out-port: this API's documentation as passages, indexed for full-text search (the knowledge base's engine). */
public interface DocsIndex {

    /** A passage: where it comes from (README.md, openapi, an ADR), its title, its text. */
    record Passage(String source, String title, String text) {
    }

    record Found(Passage passage, double score) {
    }

    /** Replaces the passages unless the index already holds this version (any replica; one of them writes). */
    Uni<Boolean> replaceAll(String version, List<Passage> passages);

    /** The best passages for a question (any of its words; ranked), best first. */
    Uni<List<Found>> search(String question, int limit);
}
