package dev.voiceagent.domain.knowledge;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.Locale;
import java.util.Optional;

/** The formats whose text the knowledge base extracts, known by the file's extension or its MIME type. */
public enum DocumentFormat {
    TEXT("text/plain", "txt"), MARKDOWN("text/markdown", "md"), CSV("text/csv", "csv"), HTML("text/html", "html"),
    PDF("application/pdf", "pdf"),
    DOCX("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx");

    private final String mimeType;
    private final String extension;

    DocumentFormat(String mimeType, String extension) {
        this.mimeType = mimeType;
        this.extension = extension;
    }

    public String mimeType() {
        return mimeType;
    }

    /** The format of a file: its extension first, then its MIME type; anything else is a 400 naming the formats. */
    public static DocumentFormat of(String filename, String mimeType) {
        String name = filename == null ? "" : filename.toLowerCase(Locale.ROOT);
        String type = mimeType == null ? "" : mimeType.split(";")[0].strip().toLowerCase(Locale.ROOT);
        return byExtension(name).or(() -> byMime(type)).orElseThrow(() -> new DomainRuleViolation(
                "Unsupported document type " + (type.isEmpty() ? filename : type)
                        + ": txt, md, csv, html, pdf and docx are supported"));
    }

    private static Optional<DocumentFormat> byExtension(String name) {
        int dot = name.lastIndexOf('.');
        String ext = dot < 0 ? "" : name.substring(dot + 1);
        return switch (ext) {
            case "txt", "text" -> Optional.of(TEXT);
            case "md", "markdown" -> Optional.of(MARKDOWN);
            case "csv" -> Optional.of(CSV);
            case "html", "htm" -> Optional.of(HTML);
            case "pdf" -> Optional.of(PDF);
            case "docx" -> Optional.of(DOCX);
            default -> Optional.empty();
        };
    }

    private static Optional<DocumentFormat> byMime(String type) {
        for (DocumentFormat f : values()) {
            if (f.mimeType.equals(type)) {
                return Optional.of(f);
            }
        }
        return switch (type) {
            case "text/x-markdown" -> Optional.of(MARKDOWN);
            case "application/xhtml+xml" -> Optional.of(HTML);
            default -> Optional.empty();
        };
    }
}
