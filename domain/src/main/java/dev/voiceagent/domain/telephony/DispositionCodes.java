package dev.voiceagent.domain.telephony;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.TreeSet;

/** The codes a run can end with: built-in end reasons, telephony statuses, then the organization's own. */
public final class DispositionCodes {

    /** Why the voice pipeline ended a call. */
    public static final List<String> END_TASK_REASONS = List.of("call_duration_exceeded", "call_transferred",
            "end_call_tool", "pipeline_error", "system_cancelled", "system_connect_error", "transfer_call",
            "transfer_call_failed", "unexpected_error", "unknown", "user_disqualified", "user_hangup",
            "user_idle_max_duration_exceeded", "user_qualified", "voicemail_detected");

    /** The final telephony statuses that end a run without a conversation. */
    public static final List<String> TELEPHONY = List.of("no-answer", "busy", "failed", "canceled", "error", "voicemail");

    private DispositionCodes() {
    }

    /** End reasons, telephony statuses, then the organization's own codes sorted; no code twice. */
    public static List<String> all(Collection<String> organizationCodes) {
        LinkedHashSet<String> codes = new LinkedHashSet<>(END_TASK_REASONS);
        codes.addAll(TELEPHONY);
        TreeSet<String> own = new TreeSet<>();
        for (String code : organizationCodes) {
            if (code != null && !code.isBlank()) {
                own.add(code.strip());
            }
        }
        codes.addAll(own);
        return new ArrayList<>(codes);
    }
}
