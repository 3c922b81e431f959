package dev.voiceagent.adapters.outbound;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.recording.Transcriber;
import dev.voiceagent.application.shared.OutboundRefusedException;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Speech to text with the organization's model: OpenAI-compatible POST {base}/audio/transcriptions (multipart:
 * file, model, language; Bearer key) for openai, groq, speaches and the installation's managed models, and
 * Deepgram's pre-recorded POST /v1/listen (the audio as the body; Token key).
 */
@Singleton
public class Transcriptions implements Transcriber {

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final Duration limit;

    public Transcriptions(GuardedHttp http, ProviderApis apis,
            @ConfigProperty(name = "voiceagent.models.upload-timeout", defaultValue = "PT60S") Duration limit) {
        this.http = http;
        this.apis = apis;
        this.limit = limit;
    }

    @Override
    public Uni<Transcript> transcribe(ModelEndpoint endpoint, byte[] audio, String contentType, String language) {
        String provider = endpoint.provider();
        String own = ProviderApis.own(endpoint);
        if (endpoint.managed()) {
            return openAi(ProviderApis.trim(endpoint.baseUrl()), false, endpoint, audio, contentType, language);
        }
        return switch (provider) {
            case "openai" -> own != null ? openAi(own, true, endpoint, audio, contentType, language)
                    : openAi(apis.openai, false, endpoint, audio, contentType, language);
            case "groq" -> openAi(own != null ? own : ProviderApis.OPENAI_COMPATIBLE.get("groq"), true, endpoint, audio,
                    contentType, language);
            case "speaches" -> {
                String base = own != null ? own : ProviderApis.catalogDefault(endpoint).orElseThrow(
                        () -> new DomainRuleViolation("Speaches needs a base_url"));
                yield openAi(base, true, endpoint, audio, contentType, language);
            }
            case "deepgram" -> deepgram(endpoint, audio, contentType, language);
            default -> throw new DomainRuleViolation("The " + ProviderApis.display(provider) + " speech-to-text model"
                    + " cannot transcribe a file here: use openai (any OpenAI-compatible base_url), groq, speaches or"
                    + " deepgram");
        };
    }

    private Uni<Transcript> openAi(String base, boolean guarded, ModelEndpoint endpoint, byte[] audio,
            String contentType, String language) {
        MultipartBody body = new MultipartBody().field("model", endpoint.model() == null ? "whisper-1"
                : endpoint.model());
        if (!"multi".equals(language)) {
            body.field("language", language.split("-")[0]);
        }
        body.field("response_format", "json").file("file", "audio." + extension(contentType), contentType, audio);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", body.contentType());
        headers.put("Accept", "application/json");
        if (endpoint.apiKey() != null) {
            headers.put("Authorization", "Bearer " + endpoint.apiKey());
        }
        return call(base + "/audio/transcriptions", headers, body.bytes(), guarded, endpoint.provider())
                .map(json -> new Transcript(json.getString("text", ""), json.getString("language"),
                        json.getValue("duration") instanceof Number n ? n.doubleValue() : null));
    }

    private Uni<Transcript> deepgram(ModelEndpoint endpoint, byte[] audio, String contentType, String language) {
        if (endpoint.apiKey() == null) {
            throw new DomainRuleViolation("Deepgram API key is missing");
        }
        String model = endpoint.model() == null ? "nova-3" : endpoint.model();
        String url = apis.deepgram + "/v1/listen?model=" + encode(model) + "&smart_format=true"
                + ("multi".equals(language) ? "&detect_language=true" : "&language=" + encode(language));
        Map<String, String> headers = Map.of("Authorization", "Token " + endpoint.apiKey(), "Content-Type", contentType,
                "Accept", "application/json");
        return call(url, headers, audio, false, "deepgram").map(json -> {
            JsonObject channel = json.getJsonObject("results", new JsonObject())
                    .getJsonArray("channels", new JsonArray()).getJsonObject(0);
            JsonObject alternative = channel == null ? null
                    : channel.getJsonArray("alternatives", new JsonArray()).getJsonObject(0);
            if (alternative == null) {
                throw new UpstreamServiceException("Deepgram answered without a transcript");
            }
            Object duration = json.getJsonObject("metadata", new JsonObject()).getValue("duration");
            return new Transcript(alternative.getString("transcript", ""), channel.getString("detected_language"),
                    duration instanceof Number n ? n.doubleValue() : null);
        });
    }

    private Uni<JsonObject> call(String url, Map<String, String> headers, byte[] body, boolean guarded,
            String provider) {
        return http.exchange("POST", url, headers, body, limit, guarded)
                .onFailure(GuardedHttp.Refused.class).transform(f -> new OutboundRefusedException(f.getMessage()))
                .onFailure(GuardedHttp.Unreachable.class).transform(f -> new UpstreamServiceException(
                        ProviderApis.display(provider) + ": " + f.getMessage()))
                .map(reply -> {
                    if (reply.status() / 100 != 2) {
                        String message = ProviderChecks.message(reply.body());
                        throw new UpstreamServiceException(ProviderApis.display(provider) + " refused the transcription"
                                + " (HTTP " + reply.status() + ")" + (message == null ? "" : ": " + message));
                    }
                    try {
                        return new JsonObject(reply.body());
                    } catch (DecodeException e) {
                        throw new UpstreamServiceException(ProviderApis.display(provider) + " answered something that"
                                + " is not JSON");
                    }
                });
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    static String extension(String contentType) {
        return switch (contentType) {
            case "audio/mpeg", "audio/mp3" -> "mp3";
            case "audio/ogg" -> "ogg";
            case "audio/webm" -> "webm";
            case "audio/flac", "audio/x-flac" -> "flac";
            case "audio/mp4", "audio/x-m4a", "audio/aac" -> "m4a";
            default -> "wav";
        };
    }
}
