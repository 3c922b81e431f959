package dev.voiceagent.application.recording;

import dev.voiceagent.application.model.ModelEndpoint;
import io.smallrye.mutiny.Uni;

/**
 * Out-port: turns recorded speech into text with the organization's speech-to-text model. A provider that fails
 * or refuses is an {@link dev.voiceagent.application.shared.UpstreamServiceException} with its message.
 */
public interface SpeechToText {

    record Transcript(String text, String language, Double durationSeconds) {
    }

    Uni<Transcript> transcribe(ModelEndpoint endpoint, byte[] audio, String contentType, String language);
}
