package dev.voiceagent.application.voice.runtime.port.out;

/** The organization names a speech provider the voice runtime cannot speak to yet: the call ends with this reason. */
public class UnsupportedSpeechProvider extends RuntimeException {

    public UnsupportedSpeechProvider(String message) {
        super(message, null, false, false);
    }
}
