package dev.voiceagent.adapters.outbound;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.OutboundRefusedException;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.application.voice.VoiceCloning;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Voice cloning at ElevenLabs (instant voice cloning): POST /v1/voices/add (multipart: name, description, the
 * samples as files[]) -> voice_id; speech with POST /v1/text-to-speech/{voice_id} (audio/mpeg); DELETE
 * /v1/voices/{voice_id}. Every request carries the organization's key as xi-api-key. Other providers cannot
 * clone here, each with the reason.
 */
@Singleton
public class ElevenLabsVoiceCloning implements VoiceCloning {

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final Duration limit;

    public ElevenLabsVoiceCloning(GuardedHttp http, ProviderApis apis,
            @ConfigProperty(name = "voiceagent.models.upload-timeout", defaultValue = "PT60S") Duration limit) {
        this.http = http;
        this.apis = apis;
        this.limit = limit;
    }

    @Override
    public Capability capability(String provider) {
        return switch (provider) {
            case "elevenlabs" -> new Capability(true, null);
            case "cartesia" -> new Capability(false, "Cartesia voice cloning is not offered here yet: use ElevenLabs"
                    + " instant voice cloning");
            case "deepgram" -> new Capability(false, "Deepgram offers no voice cloning: its Aura voices are fixed");
            case "openai" -> new Capability(false, "OpenAI text to speech offers no voice cloning: its voices are"
                    + " fixed");
            case "dograh" -> new Capability(false, "The installation's managed voices cannot be cloned");
            default -> new Capability(false, ProviderApis.display(provider) + " voice cloning is not supported here:"
                    + " use ElevenLabs");
        };
    }

    private String base(ModelEndpoint tts) {
        String own = ProviderApis.own(tts);
        return own != null ? own : apis.elevenlabs;
    }

    private boolean guarded(ModelEndpoint tts) {
        return ProviderApis.own(tts) != null;
    }

    private static String key(ModelEndpoint tts) {
        if (tts.apiKey() == null) {
            throw new DomainRuleViolation("ElevenLabs API key is missing");
        }
        return tts.apiKey();
    }

    @Override
    public Uni<String> create(ModelEndpoint tts, String name, String description, List<Sample> samples) {
        MultipartBody body = new MultipartBody().field("name", name);
        if (description != null && !description.isBlank()) {
            body.field("description", description);
        }
        body.field("remove_background_noise", "false");
        for (Sample s : samples) {
            body.file("files", s.filename(), s.contentType(), s.audio());
        }
        Map<String, String> headers = Map.of("xi-api-key", key(tts), "Accept", "application/json", "Content-Type",
                body.contentType());
        return call("POST", base(tts) + "/v1/voices/add", headers, body.bytes(), guarded(tts), "voice cloning")
                .map(reply -> {
                    try {
                        String id = new JsonObject(reply.body()).getString("voice_id");
                        if (id == null || id.isBlank()) {
                            throw new UpstreamServiceException("ElevenLabs answered without a voice_id");
                        }
                        return id;
                    } catch (DecodeException e) {
                        throw new UpstreamServiceException("ElevenLabs answered something that is not JSON");
                    }
                });
    }

    @Override
    public Uni<byte[]> speak(ModelEndpoint tts, String voiceId, String text) {
        Object model = tts.settings().get("model");
        JsonObject body = new JsonObject().put("text", text).put("model_id", model == null ? "eleven_multilingual_v2"
                : String.valueOf(model));
        Map<String, String> headers = Map.of("xi-api-key", key(tts), "Accept", "audio/mpeg", "Content-Type",
                "application/json");
        return call("POST", base(tts) + "/v1/text-to-speech/" + encode(voiceId) + "?output_format=mp3_44100_128",
                headers, body.encode().getBytes(StandardCharsets.UTF_8), guarded(tts), "speech")
                .map(reply -> {
                    if (reply.truncated()) {
                        throw new UpstreamServiceException("ElevenLabs answered more audio than a preview may hold");
                    }
                    return reply.bytes();
                });
    }

    @Override
    public Uni<Void> delete(ModelEndpoint tts, String voiceId) {
        return http.exchange("DELETE", base(tts) + "/v1/voices/" + encode(voiceId), Map.of("xi-api-key", key(tts)),
                        null, limit, guarded(tts))
                .onFailure(GuardedHttp.Refused.class).transform(f -> new OutboundRefusedException(f.getMessage()))
                .onFailure(GuardedHttp.Unreachable.class).transform(f -> new UpstreamServiceException(
                        "ElevenLabs: " + f.getMessage()))
                .map(reply -> {
                    if (reply.status() / 100 != 2 && reply.status() != 404) {
                        throw refusal(reply, "voice deletion");
                    }
                    return null;
                });
    }

    private Uni<GuardedHttp.Exchange> call(String method, String url, Map<String, String> headers, byte[] body,
            boolean guarded, String what) {
        return http.exchange(method, url, headers, body, limit, guarded)
                .onFailure(GuardedHttp.Refused.class).transform(f -> new OutboundRefusedException(f.getMessage()))
                .onFailure(GuardedHttp.Unreachable.class).transform(f -> new UpstreamServiceException(
                        "ElevenLabs: " + f.getMessage()))
                .map(reply -> {
                    if (reply.status() / 100 != 2) {
                        throw refusal(reply, what);
                    }
                    return reply;
                });
    }

    private static UpstreamServiceException refusal(GuardedHttp.Exchange reply, String what) {
        String message = ProviderChecks.message(reply.body());
        return new UpstreamServiceException("ElevenLabs refused the " + what + " (HTTP " + reply.status() + ")"
                + (message == null ? "" : ": " + message));
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
