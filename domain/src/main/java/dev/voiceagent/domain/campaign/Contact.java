package dev.voiceagent.domain.campaign;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** One row of a campaign's source: the number to dial, its own time zone if given, and its variables. */
public record Contact(long organizationId, long campaignId, int rowNumber, String phoneNumber, String timezone,
        Map<String, Object> context) {

    public Contact {
        Objects.requireNonNull(phoneNumber, "phoneNumber");
        context = context == null ? Map.of() : Map.copyOf(context);
    }

    /**
     * A row's variables as the reference builds them: header (already stripped and lower-cased) to
     * value, missing trailing cells as "", and the greeting_override_type / _text / _recording_id
     * columns folded into one greeting_override ({type: text, text} or {type: audio, recording_id})
     * when complete, else dropped.
     */
    public static Map<String, Object> contextOf(List<String> header, List<String> values) {
        Map<String, Object> context = new HashMap<>();
        for (int i = 0; i < header.size(); i++) {
            String value = i < values.size() && values.get(i) != null ? values.get(i) : "";
            context.putIfAbsent(header.get(i), value);
        }
        Object type = context.remove("greeting_override_type");
        Object text = context.remove("greeting_override_text");
        Object recording = context.remove("greeting_override_recording_id");
        String kind = type == null ? "" : type.toString().strip().toLowerCase(Locale.ROOT);
        if (kind.equals("text") && text != null && !text.toString().isBlank()) {
            context.put("greeting_override", Map.of("type", "text", "text", text.toString()));
        } else if (kind.equals("audio") && recording != null && !recording.toString().isBlank()) {
            context.put("greeting_override", Map.of("type", "audio", "recording_id", recording.toString().strip()));
        }
        return context;
    }

    /** The reference's source_uuid: csv_ + the first 8 hex digits of md5(source id) + _row_ + the data row (1-based). */
    public static String sourceUuid(String sourceId, int rowNumber) {
        try {
            byte[] md5 = MessageDigest.getInstance("MD5")
                    .digest(sourceId.getBytes(StandardCharsets.UTF_8));
            return "csv_" + HexFormat.of().formatHex(md5).substring(0, 8) + "_row_" + (rowNumber - 1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
