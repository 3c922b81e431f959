package dev.voiceagent.application.knowledge;

import dev.voiceagent.domain.knowledge.DocumentFormat;
import java.util.Map;

/**
 * Out-port: the text of a document (markdown-like: headings as "#" lines), blocking (called off the event loop).
 * A file that cannot be read is an IllegalArgumentException with the reason.
 */
public interface DocumentText {

    /** The text and what extraction learned (pages, title, ...). */
    record Extracted(String text, Map<String, Object> metadata) {
    }

    Extracted extract(DocumentFormat format, byte[] content);
}
