package dev.voiceagent.adapters.outbound;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.model.Voice;
import dev.voiceagent.application.model.VoiceCatalog;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Voice catalogs: ElevenLabs GET /v1/voices and Cartesia GET /voices with the organization's key (ElevenLabs' premade
 * voices without one); the documented voices of OpenAI's and Deepgram's (Aura-2) text to speech, which need no call.
 */
@ApplicationScoped
public class Voices implements VoiceCatalog {

    /** OpenAI's text-to-speech voices, as its documentation lists them. */
    static final List<String> OPENAI = List.of("alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage",
            "shimmer", "verse");
    /** Deepgram's Aura-2 English voices, as its documentation lists them (voice id aura-2-<name>-en). */
    static final List<String> DEEPGRAM = List.of("thalia", "andromeda", "helena", "apollo", "arcas", "aries", "amalthea",
            "asteria", "athena", "atlas", "aurora", "callista", "cora", "cordelia", "delia", "draco", "electra",
            "harmonia", "hera", "hermes", "hyperion", "iris", "janus", "juno", "jupiter", "luna", "mars", "minerva",
            "neptune", "odysseus", "ophelia", "orion", "orpheus", "pandora", "phoebe", "pluto", "saturn", "selene",
            "theia", "vesta", "zeus");

    /**
     * ElevenLabs' premade voices (id, name, gender, accent, description), listed without a key as the reference's
     * dashboard lists its catalog's: every account can speak with them. With the organization's key, its own library.
     */
    static final List<List<String>> ELEVENLABS_PREMADE = List.of(
            List.of("21m00Tcm4TlvDq8ikWAM", "Rachel", "female", "american", "calm"),
            List.of("9BWtsMINqrJLrRacOk9x", "Aria", "female", "american", "expressive"),
            List.of("EXAVITQu4vr4xnSDxMaL", "Sarah", "female", "american", "soft"),
            List.of("FGY2WhTYpPnrIDTdsKH5", "Laura", "female", "american", "upbeat"),
            List.of("XB0fDUnXU5powFXDhCwa", "Charlotte", "female", "swedish", "seductive"),
            List.of("AZnzlk1XvdvUeBnXmlld", "Domi", "female", "american", "strong"),
            List.of("MF3mGyEYCl7XYWbV9V6O", "Elli", "female", "american", "emotional"),
            List.of("CwhRBWXzGAHq8TQ4Fs17", "Roger", "male", "american", "confident"),
            List.of("IKne3meq5aSn9XLyUdCD", "Charlie", "male", "australian", "natural"),
            List.of("JBFqnCBsd6RMkjVDRZzb", "George", "male", "british", "warm"),
            List.of("N2lVS1w4EtoT3dr4eOWO", "Callum", "male", "transatlantic", "intense"),
            List.of("SAz9YHcvj6GT2YYXdXww", "River", "neutral", "american", "confident"),
            List.of("nPczCjzI2devNBz1zQrb", "Brian", "male", "american", "deep"),
            List.of("iP95p4xoKVk53GoZ742B", "Chris", "male", "american", "casual"),
            List.of("onwK4e9ZLuTAKqWW03F9", "Daniel", "male", "british", "authoritative"),
            List.of("29vD33N1CtxCmqQRPOHJ", "Drew", "male", "american", "well-rounded"),
            List.of("2EiwWnXFnvU5JabPnv8n", "Clyde", "male", "american", "war veteran"),
            List.of("5Q0t7uMcjvnagumLfvZi", "Paul", "male", "american", "authoritative"),
            List.of("CYw3kZ02Hs0563khs1Fj", "Dave", "male", "british-essex", "conversational"),
            List.of("D38z5RcWu1voky8WS1ja", "Fin", "male", "irish", "sailor"),
            List.of("ErXwobaYiN019PkySvjV", "Antoni", "male", "american", "well-rounded"),
            List.of("TxGEqnHWrfWFTfGW9XjX", "Josh", "male", "american", "deep"),
            List.of("VR6AewLTigWG4xSOukaG", "Arnold", "male", "american", "crisp"),
            List.of("pNInz6obpgDQGcFmaJgB", "Adam", "male", "american", "deep"));

    private final GuardedHttp http;
    private final ProviderApis apis;

    public Voices(GuardedHttp http, ProviderApis apis) {
        this.http = http;
        this.apis = apis;
    }

    @Override
    public Uni<Optional<List<Voice>>> voices(String provider, ModelEndpoint endpoint) {
        return switch (provider) {
            case "openai" -> Uni.createFrom().item(Optional.of(OPENAI.stream()
                    .map(v -> new Voice(v, capitalized(v), null, null, null, null, null)).toList()));
            case "deepgram" -> Uni.createFrom().item(Optional.of(DEEPGRAM.stream()
                    .map(v -> new Voice("aura-2-" + v + "-en", capitalized(v), null, null, null, "en", null)).toList()));
            case "elevenlabs" -> endpoint == null || endpoint.apiKey() == null
                    ? Uni.createFrom().item(Optional.of(ELEVENLABS_PREMADE.stream().map(v -> new Voice(v.get(0),
                            v.get(1), v.get(4), v.get(3), v.get(2), "en", null)).toList()))
                    : elevenlabs(endpoint.apiKey(), endpoint).map(Optional::of);
            case "cartesia" -> cartesia(keyed(endpoint, "Cartesia")).map(Optional::of);
            default -> Uni.createFrom().item(Optional.empty());
        };
    }

    private static String keyed(ModelEndpoint endpoint, String provider) {
        if (endpoint == null || endpoint.apiKey() == null) {
            throw new DomainRuleViolation("Listing " + provider + " voices needs the organization's " + provider
                    + " key: configure " + provider + " as the text-to-speech provider first");
        }
        return endpoint.apiKey();
    }

    private Uni<List<Voice>> elevenlabs(String key, ModelEndpoint endpoint) {
        String own = ProviderApis.own(endpoint);
        String base = own != null ? own : apis.elevenlabs;
        return fetch(base + "/v1/voices", Map.of("xi-api-key", key), own != null, "ElevenLabs").map(json -> {
            List<Voice> voices = new ArrayList<>();
            JsonArray all = json instanceof JsonObject o ? o.getJsonArray("voices", new JsonArray()) : new JsonArray();
            for (Object item : all) {
                if (item instanceof JsonObject v) {
                    JsonObject labels = v.getJsonObject("labels", new JsonObject());
                    JsonArray languages = v.getJsonArray("verified_languages", new JsonArray());
                    String language = labels.getString("language", languages.isEmpty() || !(languages.getValue(0)
                            instanceof JsonObject first) ? null : first.getString("language"));
                    voices.add(new Voice(v.getString("voice_id"), v.getString("name"),
                            v.getString("description", labels.getString("description")), labels.getString("accent"),
                            labels.getString("gender"), language, v.getString("preview_url")));
                }
            }
            return voices;
        });
    }

    private Uni<List<Voice>> cartesia(String key) {
        return fetch(apis.cartesia + "/voices?limit=100", Map.of("Authorization", "Bearer " + key, "Cartesia-Version",
                apis.cartesiaVersion), false, "Cartesia").map(json -> {
                    JsonArray all = json instanceof JsonArray a ? a : json instanceof JsonObject o
                            ? o.getJsonArray("data", new JsonArray()) : new JsonArray();
                    List<Voice> voices = new ArrayList<>();
                    for (Object item : all) {
                        if (item instanceof JsonObject v) {
                            voices.add(new Voice(v.getString("id"), v.getString("name"), v.getString("description"),
                                    null, v.getString("gender"), v.getString("language"), null));
                        }
                    }
                    return voices;
                });
    }

    private Uni<Object> fetch(String url, Map<String, String> headers, boolean guarded, String provider) {
        return http.get(url, headers, guarded)
                .onFailure(GuardedHttp.Unreachable.class)
                .transform(failure -> new UpstreamServiceException(provider + ": " + failure.getMessage()))
                .map(reply -> {
                    if (reply.status() / 100 != 2) {
                        String said = ProviderChecks.message(reply.body());
                        throw new UpstreamServiceException(provider + " answered " + reply.status()
                                + (said == null ? "" : ": " + said));
                    }
                    try {
                        String body = reply.body().strip();
                        return body.startsWith("[") ? new JsonArray(body) : new JsonObject(body);
                    } catch (DecodeException e) {
                        throw new UpstreamServiceException(provider + " answered something that is not JSON");
                    }
                });
    }

    private static String capitalized(String name) {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }
}
