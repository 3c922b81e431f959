package dev.voiceagent.domain.knowledge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits extracted text (markdown-like: "#" headings, blank lines between paragraphs) into chunks of at most
 * {@code maxChars}, each overlapping the previous by about {@code overlap} characters, cut at paragraph, then
 * sentence, then word boundaries. A chunk keeps the headings above it: its contextualized text starts with their
 * path ("Billing > Refunds"), and its metadata lists them.
 */
public final class Chunker {

    public static final int DEFAULT_MAX_CHARS = 1_200;
    public static final int DEFAULT_OVERLAP = 200;

    /** One chunk: its text, the text with its heading path, its position and metadata. */
    public record Chunk(int index, String text, String contextualizedText, Map<String, Object> metadata) {
    }

    private Chunker() {
    }

    public static List<Chunk> chunks(String text, int maxChars, int overlap) {
        if (maxChars < 100 || overlap < 0 || overlap >= maxChars / 2) {
            throw new IllegalArgumentException("maxChars >= 100 and 0 <= overlap < maxChars / 2");
        }
        List<Chunk> out = new ArrayList<>();
        List<String> headings = new ArrayList<>();
        StringBuilder section = new StringBuilder();
        List<String> sectionHeadings = List.of();
        for (String line : text.replace("\r\n", "\n").split("\n", -1)) {
            int level = headingLevel(line);
            if (level > 0) {
                flush(out, section, sectionHeadings, maxChars, overlap);
                while (headings.size() >= level) {
                    headings.removeLast();
                }
                while (headings.size() < level - 1) {
                    headings.add("");
                }
                headings.add(line.substring(level).strip());
                sectionHeadings = headings.stream().filter(h -> !h.isEmpty()).toList();
            } else {
                section.append(line).append('\n');
            }
        }
        flush(out, section, sectionHeadings, maxChars, overlap);
        return out;
    }

    private static int headingLevel(String line) {
        int level = 0;
        while (level < line.length() && level < 6 && line.charAt(level) == '#') {
            level++;
        }
        return level > 0 && level < line.length() && line.charAt(level) == ' ' ? level : 0;
    }

    private static void flush(List<Chunk> out, StringBuilder section, List<String> headings, int maxChars,
            int overlap) {
        String body = section.toString().replaceAll("[ \\t]+", " ").replaceAll("\\n{3,}", "\n\n").strip();
        section.setLength(0);
        if (body.isEmpty()) {
            return;
        }
        int start = 0;
        while (start < body.length()) {
            int end = Math.min(body.length(), start + maxChars);
            if (end < body.length()) {
                end = boundary(body, start, end);
            }
            String text = body.substring(start, end).strip();
            if (!text.isEmpty()) {
                String path = String.join(" > ", headings);
                Map<String, Object> metadata = new LinkedHashMap<>();
                metadata.put("headings", headings);
                metadata.put("start", start);
                metadata.put("end", end);
                out.add(new Chunk(out.size(), text, path.isEmpty() ? text : path + "\n\n" + text, metadata));
            }
            if (end >= body.length()) {
                break;
            }
            int next = Math.max(end - overlap, start + 1);
            // start the overlap at a word
            while (next < end && !Character.isWhitespace(body.charAt(next - 1))) {
                next++;
            }
            start = next;
        }
    }

    /** The best place to cut before {@code end}: a paragraph, a sentence, then a word boundary in its second half. */
    private static int boundary(String body, int start, int end) {
        int floor = start + (end - start) / 2;
        int paragraph = body.lastIndexOf("\n\n", end);
        if (paragraph > floor) {
            return paragraph;
        }
        for (int i = end - 1; i > floor; i--) {
            char c = body.charAt(i - 1);
            if ((c == '.' || c == '!' || c == '?' || c == '\n') && Character.isWhitespace(body.charAt(i))) {
                return i;
            }
        }
        int space = body.lastIndexOf(' ', end);
        return space > floor ? space : end;
    }
}
