package dev.voiceagent.application.dispatch;

/**
 * Told when a campaign call ends (or its dial fails), so the dispatcher can fill the freed slot now
 * rather than at its next tick. Must not block.
 */
@FunctionalInterface
public interface SlotListener {

    SlotListener NONE = organizationId -> { };

    void slotFreed(long organizationId);
}
