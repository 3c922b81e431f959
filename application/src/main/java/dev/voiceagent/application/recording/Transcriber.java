package dev.voiceagent.application.recording;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.UpstreamServiceException;
import io.smallrye.mutiny.Uni;

/**
 * Out-port: turns a recorded file of speech into text with the organization's speech-to-text model, in one request
 * (a call's live audio is heard by the voice runtime's streaming SpeechToText instead). A provider that fails or
 * refuses is an {@link UpstreamServiceException} with its message.
 */
public interface Transcriber {

    record Transcript(String text, String language, Double durationSeconds) {
    }

    Uni<Transcript> transcribe(ModelEndpoint endpoint, byte[] audio, String contentType, String language);
}
