package dev.voiceagent.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.docs.DocsIndex.Passage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The documentation assistant indexes the README and every page under src/docs, however deep. */
class DocsIndexerTest {

    @Test
    void everyPageUnderSrcDocsIsIndexed() throws IOException {
        List<String> pages;
        Path docs = Path.of("..", "src", "docs");
        try (Stream<Path> files = Files.walk(docs)) {
            pages = files.filter(f -> f.toString().endsWith(".md"))
                    .map(f -> "docs/" + docs.relativize(f).toString().replace('\\', '/')).sorted().toList();
        }
        assertThat(pages).contains("docs/architecture.md", "docs/api-tour.md", "docs/operations.md",
                "docs/adr/0001-hexagonal-modules.md");
        List<String> indexed = DocsIndexer.passages().stream().map(Passage::source).distinct().toList();
        assertThat(indexed).contains("README.md", "openapi").containsAll(pages);
    }
}
