package dev.voiceagent.domain.telephony;

/**
 * One thing to do before a configuration carries calls. {@code blocksOutbound} separates "not done
 * yet" from "outbound calls will fail"; {@code blockedReason} is what readiness reports while it is
 * incomplete.
 */
public record SetupStep(String key, String title, String description, boolean complete, boolean blocksOutbound,
        String blockedReason) {

    static SetupStep blocking(String key, String title, String description, boolean complete, String blockedReason) {
        return new SetupStep(key, title, description, complete, true, blockedReason);
    }

    static SetupStep recommended(String key, String title, String description, boolean complete) {
        return new SetupStep(key, title, description, complete, false, null);
    }
}
