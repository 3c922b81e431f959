package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.adapters.postgres.knowledge.PostgresKnowledgeRepository;
import dev.voiceagent.application.knowledge.KnowledgeUseCases;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeModelProviders;
import dev.voiceagent.deploy.support.FakeModelProviders.Received;
import dev.voiceagent.deploy.support.Sql;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The knowledge base end to end with two organizations: upload, background processing by the tick (extraction,
 * chunks that keep their headings, duplicates refused), full-text search, hybrid search with an embeddings model
 * (a local server answering like OpenAI), deletes.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeModelProviders.class)
public class KnowledgeBaseEndToEndTest {

    static final String HANDBOOK = """
            # Acme Dental handbook

            Welcome to Acme Dental. We care for the whole family.

            ## Billing

            ### Refunds

            A refund is paid back to the card within five business days after the cancellation.

            ## Parking

            Free parking is available behind the clinic on Elm Street.
            """;

    @Inject
    PostgresKnowledgeRepository repository;

    private String key;
    private String otherKey;

    @BeforeEach
    void organizations() {
        FakeModelProviders.reset();
        key = Api.createKey(Api.signUp("kb"), "k");
        otherKey = Api.createKey(Api.signUp("kb-other"), "k");
    }

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    /** Uploads and submits a file; returns its document uuid. */
    static String add(String apiKey, String filename, String mimeType, byte[] content, String mode) {
        JsonPath upload = as(apiKey).body(Map.of("filename", filename, "mime_type", mimeType, "custom_metadata",
                Map.of("team", "front desk"))).post("/api/v1/knowledge-base/upload-url").then().statusCode(200)
                .extract().jsonPath();
        given().urlEncodingEnabled(false).contentType(mimeType).body(content).put(upload.getString("upload_url"))
                .then().statusCode(200);
        String uuid = upload.getString("document_uuid");
        as(apiKey).body(Map.of("document_uuid", uuid, "s3_key", upload.getString("s3_key"), "retrieval_mode", mode))
                .post("/api/v1/knowledge-base/process-document").then().statusCode(200)
                .body("processing_status", equalTo("pending")).body("document_uuid", equalTo(uuid));
        return uuid;
    }

    /** Waits for the tick to finish the document; returns it. */
    public static JsonPath settled(String apiKey, String uuid) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (true) {
            JsonPath doc = as(apiKey).get("/api/v1/knowledge-base/documents/" + uuid).then().statusCode(200).extract()
                    .jsonPath();
            String status = doc.getString("processing_status");
            if (status.equals("completed") || status.equals("failed")) {
                return doc;
            }
            assertThat(Instant.now()).as("document " + uuid + " still " + status).isBefore(deadline);
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static JsonPath search(String apiKey, Map<String, Object> body) {
        return as(apiKey).body(body).post("/api/v1/knowledge-base/search").then().statusCode(200).extract().jsonPath();
    }

    static byte[] pdf(String text) throws IOException {
        try (PDDocument document = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDPage page = new PDPage();
            document.addPage(page);
            try (PDPageContentStream stream = new PDPageContentStream(document, page)) {
                stream.beginText();
                stream.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                stream.newLineAtOffset(72, 700);
                stream.showText(text);
                stream.endText();
            }
            document.save(out);
            return out.toByteArray();
        }
    }

    @Test
    void documentsAreProcessedInTheBackgroundAndFoundByFullTextSearch() throws IOException {
        String handbook = add(key, "handbook.md", "text/markdown", HANDBOOK.getBytes(StandardCharsets.UTF_8), "chunked");
        JsonPath done = settled(key, handbook);
        assertThat(done.getString("processing_status")).isEqualTo("completed");
        assertThat(done.getInt("total_chunks")).isEqualTo(3); // intro, refunds, parking (billing has no text of its own)
        assertThat(done.getString("file_hash")).hasSize(64);
        assertThat(done.getLong("file_size_bytes")).isEqualTo(HANDBOOK.getBytes(StandardCharsets.UTF_8).length);
        assertThat(done.getString("custom_metadata.team")).isEqualTo("front desk");
        assertThat(done.getString("docling_metadata.format")).isEqualTo("markdown");

        JsonPath found = search(key, Map.of("query", "refunds card"));
        assertThat(found.getString("search_mode")).isEqualTo("full_text");
        assertThat(found.getString("chunks[0].chunk_text")).startsWith("A refund is paid back to the card");
        assertThat(found.getString("chunks[0].contextualized_text"))
                .startsWith("Acme Dental handbook > Billing > Refunds\n\n");
        assertThat(found.getList("chunks[0].chunk_metadata.headings")).containsExactly("Acme Dental handbook",
                "Billing", "Refunds");
        assertThat(found.getString("chunks[0].document_uuid")).isEqualTo(handbook);
        assertThat(found.getString("chunks[0].filename")).isEqualTo("handbook.md");
        assertThat(found.getDouble("chunks[0].similarity")).isBetween(0.0, 1.0);
        assertThat(found.getInt("total_results")).isEqualTo(found.getList("chunks").size());
        // websearch syntax: a quoted phrase and an excluded word
        assertThat(search(key, Map.of("query", "\"Elm Street\" -refund")).getList("chunks.chunk_text"))
                .singleElement().asString().contains("Free parking");

        // the same bytes again: refused as a duplicate, with the reason
        String again = add(key, "copy.md", "text/markdown", HANDBOOK.getBytes(StandardCharsets.UTF_8), "chunked");
        JsonPath duplicate = settled(key, again);
        assertThat(duplicate.getString("processing_status")).isEqualTo("failed");
        assertThat(duplicate.getString("processing_error")).isEqualTo("Duplicate of handbook.md (same SHA-256)");

        String pdf = add(key, "hours.pdf", "application/pdf", pdf("Opening hours: Saturdays from nine to noon."),
                "full_document");
        JsonPath pdfDone = settled(key, pdf);
        assertThat(pdfDone.getString("processing_status")).isEqualTo("completed");
        assertThat(pdfDone.getInt("total_chunks")).isEqualTo(1);
        assertThat(pdfDone.getInt("docling_metadata.pages")).isEqualTo(1);
        assertThat(search(key, Map.of("query", "saturdays", "document_uuids", List.of(pdf))).getString(
                "chunks[0].chunk_text")).contains("Saturdays from nine to noon");
        assertThat(search(key, Map.of("query", "saturdays", "document_uuids", List.of(handbook))).getList("chunks"))
                .isEmpty();

        String broken = add(key, "broken.pdf", "application/pdf", "not a pdf at all".getBytes(StandardCharsets.UTF_8),
                "chunked");
        assertThat(settled(key, broken).getString("processing_error")).startsWith("The pdf file could not be read");

        JsonPath listed = as(key).get("/api/v1/knowledge-base/documents?status=completed&limit=1").then().statusCode(200)
                .extract().jsonPath();
        assertThat(listed.getInt("total")).isEqualTo(2);
        assertThat(listed.getList("documents")).hasSize(1);
        assertThat(listed.getString("documents[0].document_uuid")).isEqualTo(pdf);
        as(key).get("/api/v1/knowledge-base/documents?status=done").then().statusCode(422);
        as(key).get("/api/v1/knowledge-base/documents?limit=0").then().statusCode(422);

        // another organization sees none of it
        as(otherKey).get("/api/v1/knowledge-base/documents/" + handbook).then().statusCode(404);
        as(otherKey).delete("/api/v1/knowledge-base/documents/" + handbook).then().statusCode(404);
        assertThat(search(otherKey, Map.of("query", "refunds card")).getList("chunks")).isEmpty();
        as(otherKey).get("/api/v1/knowledge-base/documents").then().statusCode(200).body("total", equalTo(0));

        as(key).delete("/api/v1/knowledge-base/documents/" + handbook).then().statusCode(200);
        as(key).get("/api/v1/knowledge-base/documents/" + handbook).then().statusCode(404);
        assertThat(search(key, Map.of("query", "refunds card")).getList("chunks")).isEmpty();
    }

    @Inject
    io.agroal.api.AgroalDataSource dataSource;

    /** An uploaded file whose row is then put in a state by hand (a replica's claim); its uuid. */
    private String uploadedOnly(String text) {
        JsonPath upload = as(key).body(Map.of("filename", "notes.txt", "mime_type", "text/plain"))
                .post("/api/v1/knowledge-base/upload-url").then().statusCode(200).extract().jsonPath();
        given().urlEncodingEnabled(false).contentType("text/plain").body(text.getBytes(StandardCharsets.UTF_8))
                .put(upload.getString("upload_url")).then().statusCode(200);
        return upload.getString("document_uuid");
    }

    @Test
    void aDocumentWhoseReplicaDiedIsTakenOverAndGivenUpAfterThreeAttempts() {
        Sql sql = new Sql(dataSource);
        // claimed by a replica that died: its lease ran out a second ago, after one attempt
        String orphan = uploadedOnly("Orphaned notes about the dental chair maintenance schedule.");
        sql.update("UPDATE knowledge_documents SET submitted_at = now(), status = 'processing', lease_owner ="
                + " 'replica-that-died', lease_until = now() - interval '1 second', attempts = 1 WHERE uuid = ?", orphan);
        JsonPath taken = settled(key, orphan);
        assertThat(taken.getString("processing_status")).isEqualTo("completed");
        assertThat(sql.queryLong("SELECT attempts FROM knowledge_documents WHERE uuid = ?", orphan)).isEqualTo(2);
        // still leased: left alone
        String leased = uploadedOnly("Notes another replica is processing right now.");
        sql.update("UPDATE knowledge_documents SET submitted_at = now(), status = 'processing', lease_owner ="
                + " 'replica-alive', lease_until = now() + interval '1 hour', attempts = 1 WHERE uuid = ?", leased);
        // three attempts died: failed with the reason, not tried again
        String hopeless = uploadedOnly("A file that crashed every replica that read it.");
        sql.update("UPDATE knowledge_documents SET submitted_at = now(), status = 'processing', lease_owner ="
                + " 'replica-that-died', lease_until = now() - interval '1 second', attempts = 3 WHERE uuid = ?",
                hopeless);
        JsonPath failed = settled(key, hopeless);
        assertThat(failed.getString("processing_status")).isEqualTo("failed");
        assertThat(failed.getString("processing_error")).isEqualTo("Processing did not finish after 3 attempts");
        assertThat(sql.queryString("SELECT status || ' ' || lease_owner FROM knowledge_documents WHERE uuid = ?",
                leased)).isEqualTo("processing replica-alive");
    }

    @Inject
    KnowledgeUseCases.ProcessDocumentsUseCase processing;

    @Test
    void anUploadNeverSubmittedIsForgottenADayLater() {
        Sql sql = new Sql(dataSource);
        String old = uploadedOnly("Uploaded and never submitted.");
        String recent = uploadedOnly("Uploaded a minute ago.");
        String submitted = add(key, "kept.txt", "text/plain", "Submitted long ago.".getBytes(StandardCharsets.UTF_8),
                "chunked");
        sql.update("UPDATE knowledge_documents SET created_at = now() - interval '25 hours' WHERE uuid IN (?, ?)", old,
                submitted);
        assertThat(processing.purgeAbandonedUploads(Duration.ofDays(1)).await().indefinitely()).isGreaterThanOrEqualTo(1);
        assertThat(sql.queryLong("SELECT count(*) FROM knowledge_documents WHERE uuid = ?", old)).isZero();
        assertThat(sql.queryLong("SELECT count(*) FROM knowledge_documents WHERE uuid IN (?, ?)", recent, submitted))
                .isEqualTo(2);
    }

    @Test
    void uploadsAreCheckedForTypeOwnerAndSize() {
        as(key).body(Map.of("filename", "virus.exe", "mime_type", "application/octet-stream"))
                .post("/api/v1/knowledge-base/upload-url").then().statusCode(400)
                .body("detail", containsString("txt, md, csv, html, pdf and docx"));
        JsonPath upload = as(key).body(Map.of("filename", "faq.txt", "mime_type", "text/plain"))
                .post("/api/v1/knowledge-base/upload-url").then().statusCode(200).extract().jsonPath();
        assertThat(upload.getString("s3_key")).startsWith("knowledge_base/").endsWith("/faq.txt");
        // nothing uploaded yet
        as(key).body(Map.of("document_uuid", upload.getString("document_uuid"), "s3_key", upload.getString("s3_key")))
                .post("/api/v1/knowledge-base/process-document").then().statusCode(400)
                .body("detail", containsString("Nothing was uploaded"));
        as(key).body(Map.of("document_uuid", upload.getString("document_uuid"), "s3_key", "knowledge_base/1/x/faq.txt"))
                .post("/api/v1/knowledge-base/process-document").then().statusCode(400);
        as(otherKey).body(Map.of("document_uuid", upload.getString("document_uuid"), "s3_key",
                upload.getString("s3_key"))).post("/api/v1/knowledge-base/process-document").then().statusCode(404);
        // not submitted: not listed
        as(key).get("/api/v1/knowledge-base/documents").then().statusCode(200).body("total", equalTo(0));
        as(key).body(Map.of("query", " ")).post("/api/v1/knowledge-base/search").then().statusCode(422);
        as(key).body(Map.of("query", "x", "limit", 51)).post("/api/v1/knowledge-base/search").then().statusCode(422);
    }

    @Test
    void withAnEmbeddingsModelSearchIsHybrid() {
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                        "llm", Map.of("provider", "simulator"), "tts", Map.of("provider", "deepgram", "api_key", "dg"),
                        "stt", Map.of("provider", "deepgram", "api_key", "dg"),
                        "embeddings", Map.of("provider", "openai", "api_key", "sk-embed-7", "model",
                                "text-embedding-3-small")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        String handbook = add(key, "handbook.md", "text/markdown", HANDBOOK.getBytes(StandardCharsets.UTF_8), "chunked");
        assertThat(settled(key, handbook).getString("docling_metadata.embedding_model"))
                .isEqualTo("openai/text-embedding-3-small");
        List<Received> embedded = FakeModelProviders.REQUESTS.stream().filter(r -> r.path().equals("/v1/embeddings"))
                .toList();
        assertThat(embedded).hasSize(1); // the three chunks in one batch
        assertThat(embedded.getFirst().header("Authorization")).isEqualTo("Bearer sk-embed-7");
        JsonObject sent = new JsonObject(embedded.getFirst().body());
        assertThat(sent.getString("model")).isEqualTo("text-embedding-3-small");
        assertThat(sent.getJsonArray("input")).hasSize(3);

        // the embedded server has no pgvector: the exact cosine over real[] (KnowledgePgvectorEndToEndTest has it)
        assertThat(repository.usesPgvector()).isFalse();
        JsonPath found = search(key, Map.of("query", "free parking behind the clinic", "limit", 2));
        assertThat(found.getString("search_mode")).isEqualTo("hybrid");
        assertThat(found.getString("chunks[0].chunk_text")).startsWith("Free parking is available");
        // the similarity is the cosine of the two bags of words: every query word is in the chunk
        assertThat(found.getDouble("chunks[0].similarity")).isGreaterThan(0.5);
        assertThat(found.getList("chunks")).hasSize(2);
        assertThat(search(key, Map.of("query", "free parking behind the clinic", "min_similarity", 0.99))
                .getList("chunks")).isEmpty();
        assertThat(FakeModelProviders.REQUESTS.stream().filter(r -> r.path().equals("/v1/embeddings"))).hasSize(3);

        FakeModelProviders.behaviour = FakeModelProviders.Behaviour.REFUSE;
        as(key).body(Map.of("query", "parking")).post("/api/v1/knowledge-base/search").then().statusCode(502)
                .body("detail", containsString("Incorrect API key"));
    }
}
