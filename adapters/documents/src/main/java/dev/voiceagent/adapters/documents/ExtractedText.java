package dev.voiceagent.adapters.documents;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import dev.voiceagent.application.knowledge.DocumentText;
import dev.voiceagent.domain.knowledge.DocumentFormat;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.poi.xwpf.usermodel.IBodyElement;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.apache.poi.xwpf.usermodel.XWPFTableRow;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * The text of a document, markdown-like so the chunker keeps its headings: PDF through Apache PDFBox (page by page),
 * DOCX through Apache POI (heading styles become "#" lines, tables rows of cells), HTML through jsoup (h1-h6
 * headings, paragraphs, list items, table rows; scripts and navigation dropped), CSV through FastCSV (a row a
 * paragraph of "column: value"), text and markdown as they are.
 */
@ApplicationScoped
public class ExtractedText implements DocumentText {

    private static final Set<String> BLOCKS = Set.of("p", "li", "pre", "blockquote", "tr", "dt", "dd", "figcaption");

    @Override
    public Extracted extract(DocumentFormat format, byte[] content) {
        try {
            return switch (format) {
                case TEXT, MARKDOWN -> new Extracted(utf8(content), Map.of());
                case CSV -> csv(content);
                case HTML -> html(content);
                case PDF -> pdf(content);
                case DOCX -> docx(content);
            };
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("The " + format.name().toLowerCase(Locale.ROOT) + " file could not be"
                    + " read: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
    }

    private static String utf8(byte[] content) {
        String text = new String(content, StandardCharsets.UTF_8);
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    private static Extracted csv(byte[] content) {
        StringBuilder out = new StringBuilder();
        List<String> header = null;
        int rows = 0;
        try (CsvReader<CsvRecord> csv = CsvReader.builder().allowExtraFields(true).allowMissingFields(true)
                .ofCsvRecord(utf8(content))) {
            for (CsvRecord record : csv) {
                if (header == null) {
                    header = record.getFields();
                    continue;
                }
                List<String> fields = record.getFields();
                List<String> parts = new ArrayList<>();
                for (int i = 0; i < fields.size(); i++) {
                    String name = i < header.size() && !header.get(i).isBlank() ? header.get(i) : "column " + (i + 1);
                    if (!fields.get(i).isBlank()) {
                        parts.add(name.strip() + ": " + fields.get(i).strip());
                    }
                }
                if (!parts.isEmpty()) {
                    out.append(String.join("; ", parts)).append("\n\n");
                    rows++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Extracted(out.toString(), Map.of("rows", rows, "columns", header == null ? List.of() : header));
    }

    private static Extracted html(byte[] content) {
        Document document = Jsoup.parse(utf8(content));
        document.select("script, style, noscript, nav, header > nav, footer nav, template, svg").remove();
        StringBuilder out = new StringBuilder();
        for (Element e : document.body().getAllElements()) {
            String tag = e.normalName();
            if (tag.length() == 2 && tag.charAt(0) == 'h' && Character.isDigit(tag.charAt(1))) {
                String text = e.text().strip();
                if (!text.isEmpty()) {
                    out.append("#".repeat(tag.charAt(1) - '0')).append(' ').append(text).append("\n\n");
                }
            } else if (BLOCKS.contains(tag) && e.parents().stream().noneMatch(p -> BLOCKS.contains(p.normalName()))) {
                String text = tag.equals("tr") ? String.join(" | ", e.children().eachText()) : e.text();
                if (!text.isBlank()) {
                    out.append(tag.equals("li") ? "- " : "").append(text.strip()).append("\n\n");
                }
            }
        }
        if (out.isEmpty()) {
            out.append(document.body().text());
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        if (!document.title().isBlank()) {
            metadata.put("title", document.title().strip());
        }
        return new Extracted(out.toString(), metadata);
    }

    private static Extracted pdf(byte[] content) throws IOException {
        try (PDDocument document = Loader.loadPDF(content)) {
            PDFTextStripper stripper = new PDFTextStripper();
            stripper.setParagraphEnd("\n\n");
            StringBuilder out = new StringBuilder();
            for (int page = 1; page <= document.getNumberOfPages(); page++) {
                stripper.setStartPage(page);
                stripper.setEndPage(page);
                out.append(stripper.getText(document)).append("\n\n");
            }
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("pages", document.getNumberOfPages());
            String title = document.getDocumentInformation() == null ? null : document.getDocumentInformation().getTitle();
            if (title != null && !title.isBlank()) {
                metadata.put("title", title.strip());
            }
            return new Extracted(out.toString(), metadata);
        }
    }

    private static Extracted docx(byte[] content) throws IOException {
        try (XWPFDocument document = new XWPFDocument(new ByteArrayInputStream(content))) {
            StringBuilder out = new StringBuilder();
            int tables = 0;
            for (IBodyElement element : document.getBodyElements()) {
                if (element instanceof XWPFParagraph p) {
                    String text = p.getText().strip();
                    if (text.isEmpty()) {
                        continue;
                    }
                    int level = headingLevel(p);
                    out.append(level > 0 ? "#".repeat(level) + " " : "").append(text).append("\n\n");
                } else if (element instanceof XWPFTable table) {
                    tables++;
                    for (XWPFTableRow row : table.getRows()) {
                        List<String> cells = row.getTableCells().stream().map(c -> c.getText().strip()).toList();
                        out.append(String.join(" | ", cells)).append("\n");
                    }
                    out.append('\n');
                }
            }
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("tables", tables);
            String title = document.getProperties().getCoreProperties().getTitle();
            if (title != null && !title.isBlank()) {
                metadata.put("title", title.strip());
            }
            return new Extracted(out.toString(), metadata);
        }
    }

    /** 1..6 for a paragraph styled as a heading ("Heading1", "heading 2", "Title" is 1), else 0. */
    private static int headingLevel(XWPFParagraph p) {
        String style = p.getStyle() == null ? "" : p.getStyle().toLowerCase(Locale.ROOT).replace(" ", "");
        if (style.equals("title")) {
            return 1;
        }
        if (style.startsWith("heading") && style.length() > 7 && Character.isDigit(style.charAt(7))) {
            return Math.min(6, style.charAt(7) - '0');
        }
        return 0;
    }
}
