package dev.voiceagent.domain.telephony;

import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.WorkflowRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a call's status means for its run. Final statuses complete the run: an answered call
 * records its duration; a call that never connected gets the status as its disposition and the
 * tags not_connected and telephony_<status> (a voicemail: the disposition and telephony_voicemail, it connected).
 * An answered call marks the run running.
 */
public final class CallOutcome {

    private CallOutcome() {
    }

    public static WorkflowRun applyTo(WorkflowRun run, CallAttempt attempt) {
        CallStatus status = attempt.status();
        if (!status.isFinal()) {
            return status == CallStatus.IN_PROGRESS ? run.withState("running", false) : run;
        }
        Map<String, Object> usage = new LinkedHashMap<>(run.usageInfo() == null ? Map.of() : run.usageInfo());
        usage.put("call_duration_seconds", attempt.durationSeconds() == null ? 0 : attempt.durationSeconds());
        Map<String, Object> gathered = new LinkedHashMap<>(run.gatheredContext() == null ? Map.of() : run.gatheredContext());
        if (status != CallStatus.COMPLETED) {
            List<Object> tags = new ArrayList<>();
            if (JsonTree.asList(gathered.get("call_tags")) instanceof List<?> existing) {
                tags.addAll(existing);
            }
            // a voicemail answered the call: connected, to a machine
            for (String tag : status == CallStatus.VOICEMAIL ? List.of("telephony_voicemail")
                    : List.of("not_connected", "telephony_" + status.wireName())) {
                if (!tags.contains(tag)) {
                    tags.add(tag);
                }
            }
            gathered.put("call_tags", tags);
            gathered.put("call_disposition", status.wireName());
            gathered.put("mapped_call_disposition", status.wireName());
        }
        return run.withState("completed", true).withUsage(usage).withGathered(gathered);
    }
}
