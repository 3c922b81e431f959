package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Supplier;

/**
 * One call's Sarvam streaming transcription ({@code /speech-to-text/ws}, Sarvam's streaming API reference at
 * docs.sarvam.ai/api-reference-docs/speech-to-text/transcribe/ws, and pipecat's services/sarvam/stt.py): the key in
 * {@code api-subscription-key}; the model, the language ({@code language-code}, {@code unknown} to detect it),
 * {@code input_audio_codec=pcm_s16le} at {@code sample_rate=16000}, Sarvam's voice-activity signals and its flush
 * signal asked for as query parameters. Sarvam's streaming takes WAV or raw PCM at 16 or 8 kHz, not μ-law: a phone's
 * audio is decoded and resampled to 16 kHz PCM ({@link ListenSocket}), a browser's goes as it is. Each message of
 * audio is JSON, {@code {"audio": {"data": base64, "sample_rate": 16000, "encoding": "audio/wav"}}}, of
 * {@link ListenSocket#CHUNK_MS}; {@code {"type": "flush"}} when our voice activity hears the caller stop. No keep-alive:
 * Sarvam closes a socket idle for a minute, and the call's audio never pauses. The catalog's models (saarika:v2.5,
 * saaras:v3) take no key terms on this socket, so the workflow's dictionary is not sent.
 *
 * <p>Sarvam's streaming gives no interim transcripts: each {@code data} message is an utterance's final, given when
 * its own voice activity hears the speech end ({@code END_SPEECH}) or when a flush asks for it. The one that follows a
 * flush answers it (an empty one too: nothing more, the caller's turn is answered now) and settles the audio sent
 * before the flush; one Sarvam gives of itself settles the audio sent until its {@code END_SPEECH} came. Sarvam's
 * {@code error} messages carry no sign of a passing fault (pipecat too reports them and stops): one fails the stream
 * with Sarvam's words; a socket that drops without one is opened again ({@link ListenSocket}).
 */
final class SarvamListen extends ListenSocket {

    static final String FLUSH = "{\"type\":\"flush\"}";
    private static final Base64.Encoder BASE64 = Base64.getEncoder();

    /** Where the audio sent stood when Sarvam's voice activity heard the speech end (-1: none since the last final). */
    private long speechEndAt = -1;

    SarvamListen(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            SpeechToText.Listener listener) {
        super(connect, vertx, budget, "Sarvam", format, false, listener);
        connect();
    }

    /** The session's address: model, language, 16 kHz 16-bit PCM, voice-activity signals and flush. */
    static String query(String model, String language) {
        return "/speech-to-text/ws?language-code=" + URLEncoder.encode(language, StandardCharsets.UTF_8)
                + "&model=" + URLEncoder.encode(model, StandardCharsets.UTF_8)
                + "&sample_rate=" + PCM_RATE + "&input_audio_codec=pcm_s16le&vad_signals=true&flush_signal=true";
    }

    @Override
    protected void sendAudio(WebSocket ws, byte[] chunk) {
        ws.writeTextMessage(new JsonObject().put("audio", new JsonObject().put("data", BASE64.encodeToString(chunk))
                .put("sample_rate", wire.sampleRate()).put("encoding", "audio/wav")).encode());
    }

    @Override
    protected void sendFinalize(WebSocket ws) {
        ws.writeTextMessage(FLUSH);
    }

    @Override
    protected synchronized void lost() {
        speechEndAt = -1;
    }

    @Override
    protected synchronized void message(String text) {
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        JsonObject data = json.getValue("data") instanceof JsonObject d ? d : new JsonObject();
        switch (json.getString("type", "")) {
            case "data" -> {
                if (!closed) {
                    transcript(data.getValue("transcript") instanceof String s ? s.strip() : "");
                }
            }
            case "events" -> {
                if ("END_SPEECH".equals(data.getString("signal_type"))) {
                    speechEndAt = sentSoFar();
                }
            }
            case "error" -> giveUp("Sarvam: " + (data.getValue("error") instanceof String e && !e.isBlank() ? e
                    : json.getValue("error") instanceof String e2 && !e2.isBlank() ? e2 : "an error")
                    + (data.getValue("code") instanceof String c && !c.isBlank() ? " (" + c + ")" : ""));
            default -> {
                // whatever comes later
            }
        }
    }

    private void transcript(String said) {
        if (finalizing()) {
            answered();
            speechEndAt = -1;
            listener.transcript(said, true);
            return;
        }
        settle(speechEndAt);
        speechEndAt = -1;
        if (!said.isEmpty()) {
            listener.transcript(said, true);
        }
    }

    @Override
    public void close() {
        end(null, 0);
    }
}
