package dev.voiceagent.domain.telephony;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A call that came through an external PBX: the PBX's identity of it, kept in the run's initial context under
 * {@value #IDENTITY} (its type, the caller id and agent user the PBX knows the call by, its lead's fields, usable in
 * prompts as {@code {{external_pbx_call.lead.first_name}}}), and the values the workflow maps back to the PBX's lead.
 */
public final class ExternalPbxCalls {

    public static final String IDENTITY = "external_pbx_call";
    /** Workflow configuration: [{context_path, destination_field}]. */
    public static final String FIELD_MAPPINGS = "external_pbx_field_mappings";
    /** Workflow configuration: the lead fields to read from the call's SIP headers (X-VICIDIAL-<field>). */
    public static final String LEAD_HEADERS = "external_pbx_lead_headers";

    private ExternalPbxCalls() {
    }

    /** The PBX's identity of the run's call, if it came through one. */
    @SuppressWarnings("unchecked")
    public static Optional<Map<String, Object>> identity(Map<String, Object> initialContext) {
        return initialContext != null && initialContext.get(IDENTITY) instanceof Map<?, ?> identity
                ? Optional.of((Map<String, Object>) identity) : Optional.empty();
    }

    /** The lead fields the workflow asks to read, each a name VICIdial takes (others are skipped). */
    public static List<String> leadHeaders(Map<String, Object> configurations) {
        if (configurations == null || !(configurations.get(LEAD_HEADERS) instanceof List<?> headers)) {
            return List.of();
        }
        return headers.stream().filter(h -> h instanceof String s && ExternalPbx.FIELD.matcher(s).matches())
                .map(String.class::cast).distinct().toList();
    }

    /**
     * The values to write to the PBX's lead: for each mapping, the gathered value at its context path (a leading
     * {@code gathered_context.} dropped; dots walk into objects; an undotted path not found is looked up among the
     * extracted variables), as trimmed text; empty values and destination fields VICIdial would not take are skipped.
     */
    public static Map<String, String> fields(Map<String, Object> gathered, Map<String, Object> configurations) {
        Map<String, String> out = new LinkedHashMap<>();
        if (configurations == null || !(configurations.get(FIELD_MAPPINGS) instanceof List<?> mappings)) {
            return out;
        }
        for (Object o : mappings) {
            if (!(o instanceof Map<?, ?> mapping) || !(mapping.get("context_path") instanceof String path)
                    || !(mapping.get("destination_field") instanceof String field)
                    || !ExternalPbx.FIELD.matcher(field).matches() || ExternalPbx.RESERVED.contains(field)) {
                continue;
            }
            String p = path.strip();
            if (p.startsWith("gathered_context.")) {
                p = p.substring("gathered_context.".length());
            }
            Object value = walk(gathered, p);
            if (value == null && !p.contains(".") && gathered != null
                    && gathered.get("extracted_variables") instanceof Map<?, ?> extracted) {
                value = extracted.get(p);
            }
            String text = value == null ? "" : String.valueOf(value).strip();
            if (!text.isEmpty()) {
                out.put(field, text);
            }
        }
        return out;
    }

    private static Object walk(Map<String, Object> root, String path) {
        Object at = root;
        for (String part : path.split("\\.")) {
            if (!(at instanceof Map<?, ?> map)) {
                return null;
            }
            at = map.get(part);
        }
        return at;
    }
}
