package dev.voiceagent.application.call;

import io.smallrye.mutiny.Uni;
import java.util.Map;

/**
 * A call placed by a program through an agent's public trigger: authenticated by an API key (or a service key)
 * of the organization, aimed at a trigger node's path or the workflow's uuid.
 */
public interface TriggerCallUseCase {

    /** What the call is aimed at. */
    enum Target { TRIGGER_PATH, WORKFLOW_UUID }

    record TriggerCall(String phoneNumber, Map<String, Object> initialContext, Long telephonyConfigurationId,
            Long fromPhoneNumberId) {
    }

    /**
     * @param test the test variants use the draft (WR-TEST-####), the others the published version (WR-API-####)
     */
    Uni<InitiatedCall> trigger(String apiKey, Target target, String id, boolean test, TriggerCall call);
}
