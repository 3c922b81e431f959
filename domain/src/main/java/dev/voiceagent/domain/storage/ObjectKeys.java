package dev.voiceagent.domain.storage;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Object keys are prefixed with their area and organization (campaigns/<org>/...), so ownership can
 * be told from the key alone: another organization's key is refused.
 */
public final class ObjectKeys {

    public static final long MAX_CSV_BYTES = 10L * 1024 * 1024;
    /** The area of workflows' ambient sounds. */
    public static final String AMBIENT_NOISE = "ambient_noise";
    private static final List<String> AREAS = List.of("campaigns", "knowledge_base", "recordings", "ambient_noise",
            "transcripts");
    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9._-]");
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._/-]{1,512}");

    private ObjectKeys() {
    }

    /** campaigns/<org>/<uuid>_<name with every character outside [A-Za-z0-9._-] replaced by _>. */
    public static String campaignUpload(long organizationId, String fileName, long fileSize, UUID id) {
        String name = fileName == null ? "" : fileName.strip();
        if (!name.toLowerCase(Locale.ROOT).endsWith(".csv") || name.length() > 200) {
            throw new DomainRuleViolation("file_name must end in .csv (at most 200 characters)");
        }
        if (fileSize < 1 || fileSize > MAX_CSV_BYTES) {
            throw new DomainRuleViolation("file_size must be between 1 byte and 10 MiB");
        }
        return "campaigns/" + organizationId + "/" + id + "_" + UNSAFE.matcher(name).replaceAll("_");
    }

    /** ambient_noise/<org>/<workflow>/<uuid>_<sanitized name>, for an audio file of 1 byte..10 MiB. */
    public static String ambientNoiseUpload(long organizationId, long workflowId, String fileName, String mimeType,
            long fileSize, UUID id) {
        String name = fileName == null ? "" : fileName.strip();
        if (name.isEmpty() || name.length() > 200) {
            throw new DomainRuleViolation("filename must be between 1 and 200 characters");
        }
        if (mimeType == null || !mimeType.toLowerCase(Locale.ROOT).startsWith("audio/")) {
            throw new DomainRuleViolation("mime_type must be an audio type (audio/...)");
        }
        if (fileSize < 1 || fileSize > MAX_CSV_BYTES) {
            throw new DomainRuleViolation("file_size must be between 1 byte and 10 MiB");
        }
        return "ambient_noise/" + organizationId + "/" + workflowId + "/" + id + "_" + UNSAFE.matcher(name).replaceAll("_");
    }

    /** recordings/<org>/<recording id>/<sanitized name>: a recorded prompt's audio. */
    public static String recording(long organizationId, String recordingId, String fileName) {
        return "recordings/" + organizationId + "/" + recordingId + "/" + lastSegment(fileName, "audio", 120);
    }

    /** knowledge_base/<org>/<document uuid>/<sanitized name>: a knowledge-base document's file. */
    public static String knowledgeDocument(long organizationId, String uuid, String fileName) {
        return "knowledge_base/" + organizationId + "/" + uuid + "/" + lastSegment(fileName, "document", 150);
    }

    /** Whether the key lies in the organization's part of an area (recordings, knowledge_base, ...). */
    public static boolean inArea(String key, String area, long organizationId) {
        return key != null && key.startsWith(area + "/" + organizationId + "/");
    }

    /**
     * A file name as a key's last segment: its directories dropped, unsafe characters replaced by _, the end kept
     * when too long, the fallback when nothing usable is left.
     */
    private static String lastSegment(String fileName, String fallback, int maxLength) {
        String name = fileName == null ? "" : fileName.strip();
        name = UNSAFE.matcher(name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1))
                .replaceAll("_");
        if (name.isEmpty() || name.chars().allMatch(c -> c == '.')) {
            return fallback;
        }
        return name.length() > maxLength ? name.substring(name.length() - maxLength) : name;
    }

    /** recordings/<org>/runs/<run>.wav: a call's stereo recording (caller left, agent right), written by the service. */
    public static String callRecording(long organizationId, long runId) {
        return "recordings/" + organizationId + "/runs/" + runId + ".wav";
    }

    /** transcripts/<org>/<run>.txt: the text transcript of a run, written by the service. */
    public static String transcript(long organizationId, long runId) {
        return "transcripts/" + organizationId + "/" + runId + ".txt";
    }

    /** Fails with DomainRuleViolation for a malformed key and ForeignKeyException for another organization's. */
    public static void checkOwner(String key, long organizationId) {
        if (key == null || !KEY.matcher(key).matches() || key.contains("..") || key.startsWith("/")) {
            throw new DomainRuleViolation("Invalid key format");
        }
        String[] parts = key.split("/", 3);
        if (parts.length < 3 || !AREAS.contains(parts[0]) || parts[2].isEmpty()) {
            throw new DomainRuleViolation("Invalid key format");
        }
        if (!parts[1].equals(String.valueOf(organizationId))) {
            throw new ForeignKeyException();
        }
    }

    /** The key names another organization's object. */
    public static final class ForeignKeyException extends RuntimeException {
        public ForeignKeyException() {
            super("Access denied: this file does not belong to your organization", null, false, false);
        }
    }
}
