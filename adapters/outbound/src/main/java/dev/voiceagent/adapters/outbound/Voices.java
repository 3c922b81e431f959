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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.MissingResourceException;
import java.util.Objects;
import java.util.Optional;

/**
 * Voice catalogs: ElevenLabs GET /v1/voices and Cartesia GET /voices with the organization's key (ElevenLabs' premade
 * voices without one); the documented voices of OpenAI's and Deepgram's (Aura-2) text to speech, which need no call.
 * <ul>
 * <li>Azure Speech: GET https://{region}.tts.speech.microsoft.com/cognitiveservices/voices/list with the key as
 * Ocp-Apim-Subscription-Key, the configured region (eastus by default) filled into {@code ProviderApis.PUBLIC}'s
 * {@code azure_speech} address (learn.microsoft.com/azure/ai-services/speech-service/rest-text-to-speech, "Get a list
 * of voices": ShortName, DisplayName, Gender, Locale, LocaleName).</li>
 * <li>Google Cloud text-to-speech: GET https://texttospeech.googleapis.com/v1/voices?languageCode={language} with the
 * API key as x-goog-api-key (cloud.google.com/text-to-speech/docs/reference/rest/v1/voices/list: name, languageCodes,
 * ssmlGender), kept to the configured model's family (chirp_3_hd: the {@code <locale>-Chirp3-HD-<voice>} names).
 * Without a key (the catalog's Google configuration takes a service account instead), the documented Chirp 3: HD
 * voices in the configured language (cloud.google.com/text-to-speech/docs/chirp3-hd): a service account's token is
 * not asked for to read a list that every project has.</li>
 * <li>Rime: GET https://users.rime.ai/data/voices/voice_details.json, public, no key (docs.rime.ai/api-reference/data/
 * voice-details: speaker, gender, age, country, dialect, modelId, lang as ISO 639-2), kept to the configured model
 * (arcana by default). Its address is {@code ProviderApis.PUBLIC}'s {@code rime_voices}: Rime speaks on another
 * host.</li>
 * <li>LMNT: GET https://api.lmnt.com/v1/ai/voice/list with X-API-Key and lmnt-version 1.1, the version its speech
 * session and key check speak, as the reference's key check asks this list (docs.lmnt.com/api-reference/voice/
 * list-voices: id, name, description, gender, state, preview_url), the voices that are ready.</li>
 * <li>Inworld: GET https://api.inworld.ai/voices/v1/voices with the key as Basic, page after page by nextPageToken
 * (the Voices API that replaces the deprecated /tts/v1/voices, as the reference's key check asks it: voiceId,
 * displayName, langCode such as EN_US, description, tags, gender).</li>
 * <li>MiniMax: POST https://api.minimax.io/v1/get_voice {"voice_type":"all"} with the key as Bearer
 * (platform.minimax.io/docs/api-reference/speech/voice-management: system_voice, voice_cloning, voice_generation, each
 * voice_id, voice_name, description; a refusal comes as base_resp under HTTP 200), at the organization's base URL less
 * its /t2a_v2 when it chose one (guarded).</li>
 * <li>xAI: GET https://api.x.ai/v1/tts/voices with the key as Bearer (docs.x.ai/developers/rest-api-reference/
 * inference/voice: voices, each voice_id and name), under {@code ProviderApis.PUBLIC}'s {@code xai} address (its
 * /v1, as its speech adapter's).</li>
 * <li>Smallest AI: GET https://api.smallest.ai/waves/v1/{pool}/get_voices with the key as Bearer, the pool the
 * configured model (lightning_v3.1: lightning-v3.1, lightning_v3.1_pro: lightning-v3.1-pro; smallest-ai-documentation
 * get-voices-openapi.yaml: voiceId, displayName, tags with language names, accent, gender, age).</li>
 * <li>Camb.ai: GET https://client.camb.ai/apis/list-voices with x-api-key (a list of id, voice_name, gender as
 * 1 male and 2 female, description; as LiveKit's Camb.ai plugin reads it).</li>
 * <li>Sarvam: no call. Bulbul's speakers are a documented set per model and Sarvam has no API that lists them (its
 * GET /voices lists the workspace's cloned voices, which speak through its voice-cloning API, not through Bulbul):
 * bulbul:v2's and bulbul:v3's speakers as the reference's catalog lists them, the configured model's (both without a
 * configuration).</li>
 * </ul>
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

    /**
     * Sarvam's bulbul:v2 speakers (name, gender): docs.sarvam.ai's text-to-speech reference, as pipecat's
     * SarvamTTSSpeakerV2 spells them.
     */
    static final List<List<String>> SARVAM_V2 = List.of(List.of("anushka", "female"), List.of("manisha", "female"),
            List.of("vidya", "female"), List.of("arya", "female"), List.of("abhilash", "male"), List.of("karun", "male"),
            List.of("hitesh", "male"));
    /** Sarvam's bulbul:v3 speakers, as the reference's catalog lists them (their genders are not documented). */
    static final List<String> SARVAM_V3 = List.of("shubh", "aditya", "ritu", "priya", "neha", "rahul", "pooja", "rohan",
            "simran", "kavya", "amit", "dev", "ishita", "shreya", "ratan", "varun", "manan", "sumit", "roopa", "kabir",
            "aayan", "ashutosh", "advait", "amelia", "sophia", "anand", "tanya", "tarun", "sunny", "mani", "gokul",
            "vijay", "shruti", "suhani", "mohit", "kavitha", "rehan", "soham", "rupali");

    /** Google's Chirp 3: HD family, as its voice names spell it. */
    static final String CHIRP3_HD = "Chirp3-HD";
    /** Google's documented Chirp 3: HD voices (name, gender): every supported locale has each of them. */
    static final List<List<String>> CHIRP3_HD_VOICES = List.of(
            List.of("Achernar", "female"), List.of("Achird", "male"), List.of("Algenib", "male"),
            List.of("Algieba", "male"), List.of("Alnilam", "male"), List.of("Aoede", "female"),
            List.of("Autonoe", "female"), List.of("Callirrhoe", "female"), List.of("Charon", "male"),
            List.of("Despina", "female"), List.of("Enceladus", "male"), List.of("Erinome", "female"),
            List.of("Fenrir", "male"), List.of("Gacrux", "female"), List.of("Iapetus", "male"), List.of("Kore", "female"),
            List.of("Laomedeia", "female"), List.of("Leda", "female"), List.of("Orus", "male"),
            List.of("Pulcherrima", "female"), List.of("Puck", "male"), List.of("Rasalgethi", "male"),
            List.of("Sadachbia", "male"), List.of("Sadaltager", "male"), List.of("Schedar", "male"),
            List.of("Sulafat", "female"), List.of("Umbriel", "male"), List.of("Vindemiatrix", "female"),
            List.of("Zephyr", "female"), List.of("Zubenelgenubi", "male"));

    /** The LMNT API version spoken, as its speech session's (LmntStream) and its key check's. */
    static final String LMNT_VERSION = "1.1";
    /** The most pages of Inworld's voices read for one list. */
    static final int INWORLD_PAGES = 20;
    /** ISO 639-1 letters by ISO 639-2 code, terminology and bibliographic alike (deu and ger: de). */
    private static final Map<String, String> ISO639_2 = iso639Codes();
    /** ISO 639-1 letters by the language's English name, lower case (and the older names providers still use). */
    private static final Map<String, String> LANGUAGES = languageNames();
    /** How long a POST for a list may take. */
    static final Duration POST_LIMIT = Duration.ofSeconds(10);

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
            case "azure_speech" -> azureSpeech(keyed(endpoint, "Azure Speech"), endpoint).map(Optional::of);
            case "google" -> google(endpoint).map(Optional::of);
            case "rime" -> rime(setting(endpoint, "model", endpoint == null ? null : endpoint.model(), "arcana"))
                    .map(Optional::of);
            case "lmnt" -> lmnt(keyed(endpoint, "LMNT")).map(Optional::of);
            case "inworld" -> inworld(keyed(endpoint, "Inworld")).map(Optional::of);
            case "minimax" -> miniMax(keyed(endpoint, "MiniMax"), endpoint).map(Optional::of);
            case "xai" -> xai(keyed(endpoint, "xAI")).map(Optional::of);
            case "smallest" -> smallest(keyed(endpoint, "Smallest AI"),
                    setting(endpoint, "model", endpoint.model(), "lightning_v3.1")).map(Optional::of);
            case "camb" -> camb(keyed(endpoint, "Camb.ai")).map(Optional::of);
            case "sarvam" -> Uni.createFrom().item(Optional.of(sarvam(endpoint == null ? null
                    : setting(endpoint, "model", endpoint.model(), "bulbul:v2"))));
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

    /**
     * Azure Speech's voices in the configured region: ShortName is what synthesis takes, DisplayName its name, the
     * locale's name (English (United States)) its description.
     */
    private Uni<List<Voice>> azureSpeech(String key, ModelEndpoint endpoint) {
        String base;
        try {
            base = apis.azureSpeech(setting(endpoint, "region", "eastus"));
        } catch (IllegalArgumentException notARegion) {
            throw new DomainRuleViolation("Azure Speech: " + notARegion.getMessage());
        }
        return fetch(base + "/cognitiveservices/voices/list", Map.of("Ocp-Apim-Subscription-Key", key), false,
                "Azure Speech").map(json -> objects(json, null).stream()
                        .filter(v -> text(v, "ShortName") != null)
                        .map(v -> new Voice(text(v, "ShortName"), either(text(v, "DisplayName"), text(v, "ShortName")),
                                text(v, "LocaleName"), null, gender(text(v, "Gender")), text(v, "Locale"), null))
                        .toList());
    }

    /**
     * Google Cloud's voices in the configured language: with an API key its list, kept to the configured model's family
     * (a voice is {@code <locale>-<family>-<voice>}: chirp_3_hd is Chirp3-HD); without one the documented Chirp 3: HD
     * voices, the catalog's model.
     */
    private Uni<List<Voice>> google(ModelEndpoint endpoint) {
        String language = setting(endpoint, "language", "en-US");
        String family = compact(setting(endpoint, "model", endpoint == null ? null : endpoint.model(), "chirp_3_hd"));
        if (endpoint == null || endpoint.apiKey() == null || endpoint.apiKey().isBlank()) {
            if (!family.equals(compact(CHIRP3_HD))) {
                throw new DomainRuleViolation("Listing Google Cloud voices of another model than Chirp 3: HD needs an"
                        + " API key in the organization's Google Cloud text-to-speech configuration");
            }
            return Uni.createFrom().item(CHIRP3_HD_VOICES.stream().map(v -> new Voice(language + "-" + CHIRP3_HD
                    + "-" + v.get(0), v.get(0), CHIRP3_HD, null, v.get(1), language, null)).toList());
        }
        String url = apis.address("google_tts") + "/v1/voices?languageCode="
                + URLEncoder.encode(language, StandardCharsets.UTF_8);
        return fetch(url, Map.of("x-goog-api-key", endpoint.apiKey()), false, "Google Cloud").map(json -> {
            List<Voice> voices = new ArrayList<>();
            for (JsonObject v : objects(json, "voices")) {
                String name = text(v, "name");
                if (name == null) {
                    continue;
                }
                JsonArray codes = v.getValue("languageCodes") instanceof JsonArray a ? a : new JsonArray();
                String locale = codes.isEmpty() ? null : String.valueOf(codes.getValue(0));
                // <locale>-<family>-<voice>: en-US-Chirp3-HD-Charon, cmn-CN-Standard-A
                String rest = locale != null && name.startsWith(locale + "-") ? name.substring(locale.length() + 1)
                        : name;
                int last = rest.lastIndexOf('-');
                String voiceFamily = last < 0 ? rest : rest.substring(0, last);
                if (compact(voiceFamily).equals(family)) {
                    voices.add(new Voice(name, rest.substring(last + 1), voiceFamily, null,
                            gender(text(v, "ssmlGender")), locale, null));
                }
            }
            return voices;
        });
    }

    /**
     * Sarvam's speakers of {@code model} (bulbul:v3-beta is v3's), both models' without one, none for a model whose
     * speakers are not documented here; each says its model.
     */
    static List<Voice> sarvam(String model) {
        List<Voice> v2 = SARVAM_V2.stream().map(v -> new Voice(v.get(0), capitalized(v.get(0)), "bulbul:v2 speaker",
                null, v.get(1), null, null)).toList();
        List<Voice> v3 = SARVAM_V3.stream().map(v -> new Voice(v, capitalized(v), "bulbul:v3 speaker", null, null,
                null, null)).toList();
        if (model == null) {
            List<Voice> both = new ArrayList<>(v2);
            both.addAll(v3);
            return List.copyOf(both);
        }
        return model.startsWith("bulbul:v2") ? v2 : model.startsWith("bulbul:v3") ? v3 : List.of();
    }

    /** Rime's voices of {@code model}, one per speaker (a speaker of several languages is listed in its first). */
    private Uni<List<Voice>> rime(String model) {
        return fetch(apis.address("rime_voices") + "/data/voices/voice_details.json", Map.of(), false, "Rime")
                .map(json -> {
                    Map<String, Voice> bySpeaker = new LinkedHashMap<>();
                    for (JsonObject v : objects(json, null)) {
                        String speaker = text(v, "speaker");
                        if (speaker != null && model.equals(text(v, "modelId"))) {
                            bySpeaker.putIfAbsent(speaker, new Voice(speaker, capitalized(speaker),
                                    joined(text(v, "age"), text(v, "country")), lower(text(v, "dialect")),
                                    gender(text(v, "gender")), iso639(text(v, "lang")), null));
                        }
                    }
                    return List.copyOf(bySpeaker.values());
                });
    }

    /** LMNT's voices (its own and the account's) that are ready to speak. */
    private Uni<List<Voice>> lmnt(String key) {
        return fetch(apis.address("lmnt") + "/v1/ai/voice/list", Map.of("X-API-Key", key, "lmnt-version",
                LMNT_VERSION), false, "LMNT").map(json -> objects(json, null).stream()
                        .filter(v -> text(v, "id") != null && "ready".equals(either(text(v, "state"), "ready")))
                        .map(v -> new Voice(text(v, "id"), either(text(v, "name"), text(v, "id")),
                                text(v, "description"), null, gender(text(v, "gender")), null, text(v, "preview_url")))
                        .toList());
    }

    /** Inworld's voices, page after page (at most {@link #INWORLD_PAGES}). */
    private Uni<List<Voice>> inworld(String key) {
        return inworld(key, null, new ArrayList<>(), 1);
    }

    /** Inworld's page {@code page} (the first without a token), added to the voices {@code listed} so far. */
    private Uni<List<Voice>> inworld(String key, String pageToken, List<Voice> listed, int page) {
        String url = apis.address("inworld") + "/voices/v1/voices"
                + (pageToken == null ? "" : "?pageToken=" + URLEncoder.encode(pageToken, StandardCharsets.UTF_8));
        return fetch(url, Map.of("Authorization", "Basic " + key), false, "Inworld").chain(json -> {
            for (JsonObject v : objects(json, "voices")) {
                String id = text(v, "voiceId");
                if (id != null) {
                    JsonArray tags = v.getValue("tags") instanceof JsonArray a ? a : new JsonArray();
                    String gender = gender(text(v, "gender"));
                    for (int i = 0; gender == null && i < tags.size(); i++) {
                        gender = gender(String.valueOf(tags.getValue(i)));
                    }
                    String language = text(v, "langCode");
                    listed.add(new Voice(id, either(text(v, "displayName"), id), text(v, "description"), null, gender,
                            language == null ? null : Locale.forLanguageTag(language.replace('_', '-')).toLanguageTag(),
                            null));
                }
            }
            String next = json instanceof JsonObject o ? text(o, "nextPageToken") : null;
            return next == null || page >= INWORLD_PAGES ? Uni.createFrom().item(listed)
                    : inworld(key, next, listed, page + 1);
        });
    }

    /**
     * MiniMax's voices of every kind: its system voices, the account's cloned and generated ones. A voice's language is
     * the language its id begins with (English_Graceful_Lady, Chinese (Mandarin)_Reliable_Executive).
     */
    private Uni<List<Voice>> miniMax(String key, ModelEndpoint endpoint) {
        String own = ProviderApis.own(endpoint);
        String base = own == null ? apis.address("minimax")
                : own.endsWith("/t2a_v2") ? own.substring(0, own.length() - "/t2a_v2".length()) : own;
        return post(base + "/get_voice", Map.of("Authorization", "Bearer " + key),
                new JsonObject().put("voice_type", "all").encode(), own != null, "MiniMax").map(json -> {
                    JsonObject answer = json instanceof JsonObject o ? o : new JsonObject();
                    JsonObject said = answer.getValue("base_resp") instanceof JsonObject o ? o : new JsonObject();
                    String code = text(said, "status_code");
                    if (code != null && !code.equals("0")) {
                        String words = text(said, "status_msg");
                        throw new UpstreamServiceException("MiniMax answered " + code
                                + (words == null ? "" : ": " + words));
                    }
                    List<Voice> voices = new ArrayList<>();
                    for (String kind : List.of("system_voice", "voice_cloning", "voice_generation")) {
                        for (JsonObject v : objects(answer, kind)) {
                            String id = text(v, "voice_id");
                            if (id != null) {
                                Object description = v.getValue("description");
                                voices.add(new Voice(id, either(text(v, "voice_name"), id),
                                        description instanceof JsonArray lines ? joined(lines.stream()
                                                .map(String::valueOf).toArray(String[]::new)) : text(v, "description"),
                                        null, null, languageNamed(id.contains("_") ? id.substring(0, id.indexOf('_'))
                                                : null), null));
                            }
                        }
                    }
                    return voices;
                });
    }

    /** xAI's text-to-speech voices. */
    private Uni<List<Voice>> xai(String key) {
        return fetch(apis.address("xai") + "/tts/voices", Map.of("Authorization", "Bearer " + key), false, "xAI")
                .map(json -> objects(json, "voices").stream().filter(v -> text(v, "voice_id") != null)
                        .map(v -> new Voice(text(v, "voice_id"), either(text(v, "name"), text(v, "voice_id")),
                                text(v, "description"), null, gender(text(v, "gender")), text(v, "language"), null))
                        .toList());
    }

    /** Smallest AI's voices of the configured model's pool: its path spells the model with dashes. */
    private Uni<List<Voice>> smallest(String key, String model) {
        String pool = URLEncoder.encode(model.replace('_', '-'), StandardCharsets.UTF_8);
        return fetch(apis.address("smallest") + "/waves/v1/" + pool + "/get_voices", Map.of("Authorization",
                "Bearer " + key), false, "Smallest AI").map(json -> objects(json, "voices").stream()
                        .filter(v -> text(v, "voiceId") != null).map(v -> {
                            JsonObject tags = v.getValue("tags") instanceof JsonObject t ? t : new JsonObject();
                            JsonArray languages = tags.getValue("language") instanceof JsonArray a ? a
                                    : new JsonArray();
                            JsonArray uses = tags.getValue("usecases") instanceof JsonArray a ? a : new JsonArray();
                            return new Voice(text(v, "voiceId"), either(text(v, "displayName"), text(v, "voiceId")),
                                    joined(text(tags, "age"), uses.isEmpty() ? null : String.valueOf(uses.getValue(0))),
                                    lower(text(tags, "accent")), gender(text(tags, "gender")),
                                    languages.isEmpty() ? null : languageNamed(String.valueOf(languages.getValue(0))),
                                    null);
                        }).toList());
    }

    /** Camb.ai's voices: its gender is a number (1 male, 2 female; 0 not known, 9 not applicable). */
    private Uni<List<Voice>> camb(String key) {
        return fetch(apis.address("camb") + "/list-voices", Map.of("x-api-key", key), false, "Camb.ai")
                .map(json -> objects(json, "payload").stream().filter(v -> text(v, "id") != null)
                        .map(v -> new Voice(text(v, "id"), either(text(v, "voice_name"), text(v, "id")),
                                text(v, "description"), null, switch (either(text(v, "gender"), "")) {
                                    case "1" -> "male";
                                    case "2" -> "female";
                                    default -> null;
                                }, null, null))
                        .toList());
    }

    private Uni<Object> fetch(String url, Map<String, String> headers, boolean guarded, String provider) {
        return read(http.get(url, headers, guarded), provider);
    }

    private Uni<Object> post(String url, Map<String, String> headers, String json, boolean guarded, String provider) {
        return read(http.postJson(url, headers, json, POST_LIMIT, guarded), provider);
    }

    /** The provider's JSON answer; its refusal in its words, or its being out of reach, as an upstream failure. */
    private static Uni<Object> read(Uni<GuardedHttp.Reply> answer, String provider) {
        return answer.onFailure(GuardedHttp.Unreachable.class)
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

    private static Map<String, String> iso639Codes() {
        Map<String, String> codes = new HashMap<>(Map.of("ger", "de", "fre", "fr", "chi", "zh", "dut", "nl",
                "gre", "el", "per", "fa", "cze", "cs", "rum", "ro"));
        for (String code : Locale.getISOLanguages()) {
            try {
                codes.putIfAbsent(Locale.of(code).getISO3Language(), code);
            } catch (MissingResourceException noIso3) {
                // a language without a three-letter code is not looked up by one
            }
        }
        return Map.copyOf(codes);
    }

    private static Map<String, String> languageNames() {
        Map<String, String> names = new HashMap<>(Map.of("bengali", "bn", "oriya", "or", "mandarin", "zh",
                "cantonese", "yue"));
        for (String code : Locale.getISOLanguages()) {
            names.putIfAbsent(Locale.of(code).getDisplayLanguage(Locale.ENGLISH).toLowerCase(Locale.ROOT), code);
        }
        return Map.copyOf(names);
    }

    /** The objects of a JSON answer: the array it is, or the array under {@code field} of the object it is. */
    private static List<JsonObject> objects(Object json, String field) {
        JsonArray all = json instanceof JsonArray a ? a : json instanceof JsonObject o && field != null
                && o.getValue(field) instanceof JsonArray inner ? inner : new JsonArray();
        List<JsonObject> objects = new ArrayList<>();
        for (Object item : all) {
            if (item instanceof JsonObject v) {
                objects.add(v);
            }
        }
        return objects;
    }

    /** A field as text (a number as its digits), null when missing or blank. */
    private static String text(JsonObject json, String field) {
        Object value = json.getValue(field);
        String text = value instanceof String s ? s : value instanceof Number n ? n.toString() : null;
        return text == null || text.isBlank() ? null : text.strip();
    }

    /**
     * A gender as its provider spells it (F, Male, FEMALE, Non-binary), as the other catalogs do: female, male, neutral;
     * null when it is not said (SSML_VOICE_GENDER_UNSPECIFIED).
     */
    private static String gender(String given) {
        return switch (given == null ? "" : given.toLowerCase(Locale.ROOT)) {
            case "f", "female" -> "female";
            case "m", "male" -> "male";
            case "n", "neutral", "nonbinary", "non-binary", "non_binary" -> "neutral";
            default -> null;
        };
    }

    /** A language's English name (English, Chinese (Mandarin), hindi) as its ISO 639-1 letters; null if not one. */
    static String languageNamed(String name) {
        if (name == null) {
            return null;
        }
        String plain = name.replaceAll("\\(.*\\)", "").strip().toLowerCase(Locale.ROOT);
        return LANGUAGES.get(plain);
    }

    /** An ISO 639-2 code (eng, spa, ger) as the two letters the other catalogs use (en, es, de); itself otherwise. */
    static String iso639(String code) {
        return code == null ? null : ISO639_2.getOrDefault(code.toLowerCase(Locale.ROOT), code);
    }

    /** The texts that are given, joined by commas; null when none is. */
    private static String joined(String... texts) {
        String joined = String.join(", ", Arrays.stream(texts).filter(Objects::nonNull).toList());
        return joined.isEmpty() ? null : joined;
    }

    private static String either(String text, String otherwise) {
        return text != null ? text : otherwise;
    }

    private static String lower(String text) {
        return text == null ? null : text.toLowerCase(Locale.ROOT);
    }

    /** Letters and digits only, lower case: chirp_3_hd and Chirp3-HD alike are chirp3hd. */
    private static String compact(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    /** A text setting of the organization's configuration, {@code fallback} without one. */
    private static String setting(ModelEndpoint endpoint, String name, String fallback) {
        return setting(endpoint, name, null, fallback);
    }

    private static String setting(ModelEndpoint endpoint, String name, String given, String fallback) {
        Object value = endpoint == null ? null : endpoint.settings().get(name);
        String chosen = value instanceof String s && !s.isBlank() ? s.strip() : given;
        return chosen == null || chosen.isBlank() ? fallback : chosen;
    }
}
