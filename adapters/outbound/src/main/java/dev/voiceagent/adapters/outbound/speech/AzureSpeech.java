package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.domain.audio.AudioFormat;
import java.math.BigDecimal;
import java.util.Map;

/**
 * Azure Speech's text-to-speech REST API, one {@link SpeechRequests} request per sentence: {@code POST
 * https://{region}.tts.speech.microsoft.com/cognitiveservices/v1} with the resource's key in
 * {@code Ocp-Apim-Subscription-Key}, an SSML body ({@code application/ssml+xml}: the voice, the configured speed as
 * prosody's relative rate, the sentence XML-escaped) and the output format in {@code X-Microsoft-OutputFormat}: the
 * call's own, {@code raw-8khz-8bit-mono-mulaw} on the phone and {@code raw-16khz-16bit-mono-pcm} in a browser, headerless,
 * so nothing is transcoded. Azure streams the audio with chunked transfer as it synthesizes, and it is handed on as it
 * comes. (Relied on: learn.microsoft.com/azure/ai-services/speech-service/rest-text-to-speech, its list of output
 * formats and the SSML structure page; pipecat's services/azure/tts.py builds the same SSML and escapes the same five
 * characters.) The catalog's {@code model} ("neural") names no request field: every Azure voice is neural.
 */
final class AzureSpeech {

    /** Azure's headerless output formats by the call's format; anything else is asked as 16 kHz PCM and converted. */
    private static final Map<AudioFormat, String> RAW = Map.of(
            AudioFormat.MULAW_8K, "raw-8khz-8bit-mono-mulaw",
            new AudioFormat(AudioFormat.Encoding.PCM16LE, 8_000), "raw-8khz-16bit-mono-pcm",
            AudioFormat.PCM_16K, "raw-16khz-16bit-mono-pcm",
            AudioFormat.PCM_24K, "raw-24khz-16bit-mono-pcm",
            AudioFormat.PCM_48K, "raw-48khz-16bit-mono-pcm");
    private static final String FALLBACK = "raw-16khz-16bit-mono-pcm";

    private AzureSpeech() {
    }

    /** The headers of a sentence's request. */
    static Map<String, String> headers(String key, AudioFormat format) {
        return Map.of("Ocp-Apim-Subscription-Key", key, "Content-Type", "application/ssml+xml",
                "X-Microsoft-OutputFormat", RAW.getOrDefault(format, FALLBACK), "Accept", "audio/*",
                "User-Agent", "voiceagent");
    }

    /** How the answer becomes the call's audio: as it is when Azure speaks the call's format, else converted. */
    static SpeechRequests.Decoder decoder(AudioFormat format) {
        return RAW.containsKey(format) ? SpeechRequests.Conversion.none(format)
                : SpeechRequests.Conversion.fromPcm(16_000, format);
    }

    /**
     * The SSML of a sentence: {@code voice} in {@code language}, at {@code speed} times the voice's rate (no prosody
     * element when it is null or 1).
     */
    static String ssml(String text, String voice, String language, Double speed) {
        StringBuilder ssml = new StringBuilder("<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xml:lang='")
                .append(escape(language)).append("'><voice name='").append(escape(voice)).append("'>");
        boolean prosody = speed != null && speed != 1.0;
        if (prosody) {
            ssml.append("<prosody rate='").append(BigDecimal.valueOf(speed).stripTrailingZeros().toPlainString())
                    .append("'>");
        }
        ssml.append(escape(text));
        if (prosody) {
            ssml.append("</prosody>");
        }
        return ssml.append("</voice></speak>").toString();
    }

    /** Text as XML character data or an attribute's value: the five characters SSML reserves, escaped. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
