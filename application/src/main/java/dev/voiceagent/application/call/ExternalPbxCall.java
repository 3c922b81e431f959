package dev.voiceagent.application.call;

import java.util.Map;

/**
 * A call that came through an external PBX, as its carrier tells the PBX of it: the PBX's identity of the call (the
 * run's {@code external_pbx_call}) and the lead fields the workflow maps from what the call gathered.
 */
public record ExternalPbxCall(Map<String, Object> identity, Map<String, String> fields) {

    public ExternalPbxCall {
        identity = Map.copyOf(identity);
        fields = Map.copyOf(fields);
    }
}
