package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * Google Cloud Text-to-Speech's REST {@code POST /v1/text:synthesize}, one {@link SpeechRequests} request per sentence:
 * the voice by name and language (a Chirp 3 HD voice, {@code en-US-Chirp3-HD-Charon}: the name picks the model, so the
 * catalog's {@code model} is not sent), the configured speed as {@code speakingRate}, and the call's own format asked
 * for ({@code MULAW} at 8 kHz on the phone, {@code LINEAR16} at the call's rate in a browser). The answer is JSON with
 * the whole sentence's audio in base64 {@code audioContent}, inside a WAV file (both encodings come with a WAV header,
 * stripped here by reading its chunks; a file in another shape than asked is converted). Google's streaming synthesis
 * ({@code StreamingSynthesize}, which speaks as the text comes) exists only over gRPC, which this runtime does not
 * speak: per-sentence REST costs a sentence's synthesis time before its first audio, and keeps every sentence
 * cancellable on its own. (Relied on: cloud.google.com/text-to-speech/docs/reference/rest/v1/text/synthesize and the
 * AudioEncoding reference, "Audio content returned as LINEAR16/MULAW also contains a WAV header"; pipecat's
 * services/google/tts.py, whose streaming service is the gRPC one.)
 */
final class GoogleSpeech {

    /** A sentence's answer larger than this is refused (a minute of 48 kHz PCM in base64 is under 8 MB). */
    static final int MAX_ANSWER = 16 << 20;

    private GoogleSpeech() {
    }

    /** The request of a sentence: {@code voice} in {@code language} at {@code speed}, the call's format. */
    static String body(String text, String voice, String language, Double speed, AudioFormat format) {
        JsonObject audio = new JsonObject()
                .put("audioEncoding", format.encoding() == AudioFormat.Encoding.MULAW ? "MULAW" : "LINEAR16")
                .put("sampleRateHertz", format.sampleRate());
        if (speed != null) {
            audio.put("speakingRate", speed);
        }
        return new JsonObject().put("input", new JsonObject().put("text", text))
                .put("voice", new JsonObject().put("languageCode", language).put("name", voice))
                .put("audioConfig", audio).encode();
    }

    static SpeechRequests.Decoder decoder(AudioFormat format) {
        return new Answer(format);
    }

    /** A sentence's answer: its JSON read whole, then its audio out of the WAV file it carries. */
    private static final class Answer implements SpeechRequests.Decoder {
        private final AudioFormat format;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        Answer(AudioFormat format) {
            this.format = format;
        }

        @Override
        public byte[] chunk(byte[] bytes) {
            if (body.size() + bytes.length > MAX_ANSWER) {
                throw new SpeechRequests.Said("an answer larger than " + (MAX_ANSWER >> 20) + " MB", false);
            }
            body.writeBytes(bytes);
            return new byte[0];
        }

        @Override
        public byte[] end() {
            String content;
            try {
                content = new JsonObject(body.toString(StandardCharsets.UTF_8))
                        .getString("audioContent");
            } catch (DecodeException | ClassCastException notJson) {
                throw new SpeechRequests.Said("an answer that is not its JSON", true);
            }
            if (content == null) {
                throw new SpeechRequests.Said("an answer without audioContent", true);
            }
            try {
                return audio(Base64.getDecoder().decode(content), format);
            } catch (IllegalArgumentException notBase64) {
                throw new SpeechRequests.Said("audioContent that is not base64", true);
            }
        }
    }

    /**
     * The call's audio out of a WAV file: its data chunk as it is when it is in the call's format, else decoded and
     * converted (16-bit PCM or μ-law, mono). Bytes without a RIFF header are taken as the format asked for.
     */
    static byte[] audio(byte[] file, AudioFormat format) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        if (file.length < 12 || b.getInt(0) != 0x46464952 || b.getInt(8) != 0x45564157) { // "RIFF", "WAVE"
            return file;
        }
        int code = -1;
        int channels = 0;
        int rate = 0;
        int at = 12;
        while (at + 8 <= file.length) {
            int id = b.getInt(at);
            long size = b.getInt(at + 4) & 0xFFFFFFFFL;
            int body = at + 8;
            if (id == 0x20746d66 && body + 16 <= file.length) { // "fmt "
                code = b.getShort(body) & 0xFFFF;
                channels = b.getShort(body + 2) & 0xFFFF;
                rate = b.getInt(body + 4);
            } else if (id == 0x61746164) { // "data": a streamed file may say 0 or more than there is
                byte[] data = Arrays.copyOfRange(file, body, size == 0 ? file.length
                        : (int) Math.min(file.length, body + size));
                return convert(data, code, channels, rate, format);
            }
            at = (int) Math.min(Integer.MAX_VALUE, body + size + (size & 1));
        }
        throw new SpeechRequests.Said("a WAV file without audio data", true);
    }

    private static byte[] convert(byte[] data, int code, int channels, int rate, AudioFormat format) {
        boolean pcm = code == 1;
        boolean mulaw = code == 7;
        if (channels != 1 || !pcm && !mulaw || rate < 8_000 || rate > 48_000 || rate % 1_000 != 0) {
            throw new SpeechRequests.Said("a WAV file of format " + code + ", " + channels + " channels at "
                    + rate + " Hz", false);
        }
        AudioFormat given = new AudioFormat(mulaw ? AudioFormat.Encoding.MULAW : AudioFormat.Encoding.PCM16LE, rate);
        if (given.equals(format)) {
            return data;
        }
        SpeechRequests.Conversion conversion = SpeechRequests.Conversion.fromPcm(rate, format);
        byte[] head = conversion.chunk(mulaw ? Pcm16.bytes(G711.decode(data)) : data);
        byte[] tail = conversion.end();
        byte[] out = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, out, head.length, tail.length);
        return out;
    }
}
