package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import java.util.function.BooleanSupplier;

/**
 * A provider's events moved onto the call's loop: providers call their listeners on their own threads, and a session
 * is only ever touched on its loop. An event that arrives once the session is over is dropped there.
 */
final class OnLoop {

    private OnLoop() {
    }

    /** The speech-to-speech model's events, each run on {@code loop} unless {@code over}. */
    static SpeechToSpeech.Listener speechToSpeech(CallLoop loop, BooleanSupplier over, SpeechToSpeech.Listener target) {
        return new LoopedSpeechToSpeech(loop, over, target);
    }

    private static final class LoopedSpeechToSpeech implements SpeechToSpeech.Listener {
        private final CallLoop loop;
        private final BooleanSupplier over;
        private final SpeechToSpeech.Listener target;

        LoopedSpeechToSpeech(CallLoop loop, BooleanSupplier over, SpeechToSpeech.Listener target) {
            this.loop = loop;
            this.over = over;
            this.target = target;
        }

        private void run(Runnable event) {
            loop.execute(() -> {
                if (!over.getAsBoolean()) {
                    event.run();
                }
            });
        }

        @Override
        public void speechStarted() {
            run(target::speechStarted);
        }

        @Override
        public void speechStopped(String itemId) {
            run(() -> target.speechStopped(itemId));
        }

        @Override
        public void heard(String itemId, String transcript) {
            run(() -> target.heard(itemId, transcript));
        }

        @Override
        public void responseStarted(String responseId) {
            run(() -> target.responseStarted(responseId));
        }

        @Override
        public void audio(String responseId, String itemId, byte[] audio) {
            run(() -> target.audio(responseId, itemId, audio));
        }

        @Override
        public void transcript(String responseId, String delta) {
            run(() -> target.transcript(responseId, delta));
        }

        @Override
        public void responseDone(SpeechToSpeech.Response response) {
            run(() -> target.responseDone(response));
        }

        @Override
        public void warning(String message) {
            run(() -> target.warning(message));
        }

        @Override
        public void failed(String message) {
            run(() -> target.failed(message));
        }
    }
}
