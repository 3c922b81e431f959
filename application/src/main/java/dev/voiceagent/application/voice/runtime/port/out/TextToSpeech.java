package dev.voiceagent.application.voice.runtime.port.out;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.voice.HeardText;
import java.util.List;

/**
 * Out-port: streaming speech synthesis (each provider's WebSocket or a streamed request per sentence, the simulator's
 * FreeTTS). One connection per call, opened when the
 * media connects and kept warm; each sentence is an utterance of its own, so one can be cancelled without the
 * others. Audio comes in the format asked for. A connection that drops is opened again and a sentence's request that
 * fails is made again, within the installation's budget, without failing the stream ({@link Listener#restart} says
 * when a sentence's audio comes again from its start). The listener may be called on any thread.
 */
public interface TextToSpeech {

    interface Listener {

        /** Audio of an utterance, in order within it. */
        void audio(String utterance, byte[] audio);

        /** The utterance's audio is complete. */
        void done(String utterance);

        /**
         * When the provider says where its words fall (ElevenLabs' alignment): words of the utterance, in order, in
         * milliseconds from the start of the utterance's audio. What a barge-in keeps of a sentence cut mid-way.
         */
        default void words(String utterance, List<HeardText.Word> words) {
        }

        /**
         * The utterance's audio comes again from its start; what came of it before is to be forgotten. Said before a
         * sentence whose audio had partly come is spoken again (its connection dropped, or its request failed and is
         * made again): its words too come again.
         */
        default void restart(String utterance) {
        }

        /**
         * The connection failed or the provider refused, and could not be had again within the installation's retry
         * budget; nothing more comes. A sentence is never skipped silently: one that cannot be spoken ends so.
         */
        void failed(String message);
    }

    interface Stream {

        /** Speaks {@code text} as the utterance {@code utterance} (a fresh id). */
        void speak(String utterance, String text);

        /** Stops an utterance: no more of its audio comes (a barge-in). */
        void cancel(String utterance);

        /**
         * Characters spoken so far (usage): a sentence counts once, when its audio is complete, or when it is cancelled
         * after some of its audio came (the caller heard its start, and the provider made it, as the reference meters
         * every sentence it sends); a sentence refused, failed or cancelled before any of its audio counts nothing,
         * and one spoken again after a reconnect or a retry counts once.
         */
        long characters();

        void close();
    }

    /** Opens a stream; a provider this runtime cannot speak to is an {@link UnsupportedSpeechProvider}. */
    Stream open(ModelEndpoint endpoint, AudioFormat format, Listener listener);
}
