package dev.voiceagent.application.call;

/**
 * A live call handed to a person: the run it belongs to, where it goes (a phone number or a SIP URI), how long that
 * rings, and the whisper the person hears when they answer, before the caller is put through (a line to say, and/or a
 * recording's public address to play; null for none). A call that came through an external PBX carries the PBX's
 * identity of it and the lead fields to write ({@code externalPbx}, else null): the PBX itself may transfer it.
 */
public record Transfer(long runId, String destination, int timeoutSeconds, String whisperText, String whisperAudioUrl,
        ExternalPbxCall externalPbx) {

    public Transfer(long runId, String destination, int timeoutSeconds, String whisperText, String whisperAudioUrl) {
        this(runId, destination, timeoutSeconds, whisperText, whisperAudioUrl, null);
    }

    public boolean whispers() {
        return whisperText != null && !whisperText.isBlank() || whisperAudioUrl != null;
    }
}
