package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.domain.voice.VoicemailDetection;

/** Voicemail detection on a call: the workflow's setting and the model that classifies the callee's first turn. */
public record Voicemail(VoicemailDetection detection, ModelEndpoint model) {
}
