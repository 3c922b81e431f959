package dev.voiceagent.domain.recording;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A recorded audio prompt of an organization (a greeting, a transition's speech, a tool's message), named by a
 * short recording id that definitions refer to. Its audio sits in the object store under
 * recordings/{organization}/{recording id}/{file} ({@code ObjectKeys.recording}).
 */
public record Recording(Long id, long organizationId, String recordingId, Long workflowId, String ttsProvider,
        String ttsModel, String ttsVoiceId, String transcript, String storageKey, String storageBackend,
        Map<String, Object> metadata, long createdBy, Instant createdAt, boolean active) {

    public static final long MAX_BYTES = 5L * 1024 * 1024;
    public static final int MAX_FILES = 20;
    public static final int MAX_TRANSCRIPT = 10_000;
    public static final Set<String> AUDIO_TYPES = Set.of("audio/wav", "audio/x-wav", "audio/wave", "audio/mpeg",
            "audio/mp3", "audio/ogg", "audio/webm", "audio/flac", "audio/x-flac", "audio/mp4", "audio/x-m4a",
            "audio/aac");
    private static final Pattern RECORDING_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final char[] ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    public Recording {
        recordingId = checkedId(recordingId);
        if (transcript == null) {
            throw new DomainRuleViolation("transcript is required");
        }
        if (transcript.length() > MAX_TRANSCRIPT) {
            throw new DomainRuleViolation("transcript must be at most " + MAX_TRANSCRIPT + " characters");
        }
        metadata = metadata == null ? Map.of() : metadata;
    }

    /** A recording id as a definition names it: 1 to 64 letters, digits, _ or -. */
    public static String checkedId(String recordingId) {
        if (recordingId == null || !RECORDING_ID.matcher(recordingId).matches()) {
            throw new DomainRuleViolation("recording_id must be 1 to 64 letters, digits, _ or -");
        }
        return recordingId;
    }

    /** A new short id (8 characters, no look-alikes). */
    public static String newId() {
        char[] out = new char[8];
        for (int i = 0; i < out.length; i++) {
            out[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
        }
        return new String(out);
    }

    /** An audio type the upload may have (parameters such as ;codecs= ignored); else a 400. */
    public static String audioType(String mimeType) {
        String type = mimeType == null ? "audio/wav" : mimeType.split(";")[0].strip().toLowerCase(Locale.ROOT);
        if (!AUDIO_TYPES.contains(type)) {
            throw new DomainRuleViolation("Unsupported audio type " + mimeType + "; one of " + String.join(", ",
                    AUDIO_TYPES.stream().sorted().toList()));
        }
        return type;
    }

    public Recording renamed(String next) {
        return new Recording(id, organizationId, next, workflowId, ttsProvider, ttsModel, ttsVoiceId, transcript,
                storageKey, storageBackend, metadata, createdBy, createdAt, active);
    }
}
