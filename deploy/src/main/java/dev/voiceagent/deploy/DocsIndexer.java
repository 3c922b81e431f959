package dev.voiceagent.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.application.docs.DocsAssistantService;
import dev.voiceagent.application.docs.DocsIndex.Passage;
import dev.voiceagent.domain.knowledge.Chunker;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.util.ClassPathUtils;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * Indexes this API's documentation for the documentation assistant a while after the service has started
 * (voiceagent.docs.index-delay, 20 s; on a worker): the README and every page under src/docs, the design records included
 * (classpath docs/, copied there by the build), split at their headings, and one passage per operation of the OpenAPI document (its summary and description). Replicas
 * starting together index once; an unchanged documentation is not written again.
 */
@ApplicationScoped
public class DocsIndexer {

    private static final Logger LOG = Logger.getLogger(DocsIndexer.class);

    /** How long after start the index is written: the first requests do not share the CPU with it. */
    @Inject
    VoiceAgentConfig config;

    void onStart(@Observes StartupEvent event, DocsAssistantService docs) {
        // read, parsed and chunked on a worker, a while after start: none of it delays the start or the first requests
        Uni<Void> start = Uni.createFrom().voidItem();
        Duration delay = config.docs().indexDelay();
        if (delay.isPositive()) {
            start = start.onItem().delayIt().by(delay);
        }
        start.emitOn(Infrastructure.getDefaultWorkerPool()).map(ignored -> passages()).chain(docs::index).subscribe().with(
                        written -> LOG.debugf("documentation index %s", written ? "written" : "current"),
                        failure -> LOG.warnf("documentation not indexed: %s", failure.toString()));
    }

    static List<Passage> passages() {
        List<Passage> out = new ArrayList<>();
        read("docs/README.md").ifPresent(text -> out.addAll(markdown("README.md", text)));
        // every page of src/docs (copied to docs/ by the build), sub-folders included, in a stable order
        try {
            ClassPathUtils.consumeAsPaths("docs", dir -> {
                try (Stream<Path> files = Files.walk(dir)) {
                    files.filter(f -> f.getFileName().toString().endsWith(".md"))
                            .filter(f -> !dir.relativize(f).toString().equals("README.md"))
                            .sorted(Comparator.comparing(f -> dir.relativize(f).toString()))
                            .forEach(f -> {
                                String name = "docs/" + dir.relativize(f).toString().replace('\\', '/');
                                try {
                                    out.addAll(markdown(name, Files.readString(f)));
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        read("docs/openapi.json").ifPresent(text -> out.addAll(operations(text)));
        return out;
    }

    private static Optional<String> read(String resource) {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
            return in == null ? Optional.empty()
                    : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Passage> markdown(String source, String text) {
        List<Passage> out = new ArrayList<>();
        for (Chunker.Chunk c : Chunker.chunks(text, Chunker.DEFAULT_MAX_CHARS, Chunker.DEFAULT_OVERLAP)) {
            @SuppressWarnings("unchecked")
            List<String> headings = (List<String>) c.metadata().getOrDefault("headings", List.of());
            out.add(new Passage(source, headings.isEmpty() ? source : String.join(" > ", headings), c.text()));
        }
        return out;
    }

    static List<Passage> operations(String json) {
        List<Passage> out = new ArrayList<>();
        try {
            JsonNode paths = new ObjectMapper().readTree(json).path("paths");
            for (Iterator<Map.Entry<String, JsonNode>> p = paths.fields(); p.hasNext(); ) {
                Map.Entry<String, JsonNode> path = p.next();
                for (Iterator<Map.Entry<String, JsonNode>> o = path.getValue().fields(); o.hasNext(); ) {
                    Map.Entry<String, JsonNode> op = o.next();
                    String method = op.getKey().toUpperCase(Locale.ROOT);
                    if (!List.of("GET", "POST", "PUT", "PATCH", "DELETE").contains(method)) {
                        continue;
                    }
                    String summary = op.getValue().path("summary").asText("");
                    String description = op.getValue().path("description").asText("");
                    String title = method + " " + path.getKey() + (summary.isEmpty() ? "" : " (" + summary + ")");
                    out.add(new Passage("openapi", title, (summary + ". " + description).strip()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
