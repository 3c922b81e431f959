package dev.voiceagent.application.voice.runtime.port.out;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.domain.audio.AudioFormat;

/**
 * Out-port: streaming speech recognition (each provider's streaming socket or gRPC stream, the simulator's). One stream per call, opened when the media
 * connects; audio sent before the provider answered is held and sent once it has. The listener may be called on any
 * thread (the session moves it to the call's loop).
 */
public interface SpeechToText {

    /** What the recognizer hears. */
    interface Listener {

        /** A transcript of the caller: {@code isFinal} when the provider settled it. */
        void transcript(String text, boolean isFinal);

        /** The stream failed or the provider refused it; nothing more comes. */
        void failed(String message);
    }

    /** One call's recognition. */
    interface Stream {

        /** Caller audio in the format the stream was opened with. */
        void audio(byte[] frame);

        /** The caller stopped speaking: settle what was heard now (Deepgram's Finalize, AssemblyAI's ForceEndpoint). */
        void finalizeNow();

        /** Seconds of audio sent so far (usage). */
        double seconds();

        void close();
    }

    /**
     * Opens a stream; a provider this runtime cannot speak to is an
     * {@link UnsupportedSpeechProvider} thrown here, before anything is sent.
     */
    Stream open(ModelEndpoint endpoint, AudioFormat format, Listener listener);
}
