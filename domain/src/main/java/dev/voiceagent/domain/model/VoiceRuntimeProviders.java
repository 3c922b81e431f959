package dev.voiceagent.domain.model;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The speech providers the voice runtime speaks to, per service: a pipeline whose voice is another is refused when the
 * configuration is saved (422 at its provider), not when a call starts, so no call is placed that could not talk.
 * (Speech-to-text also transcribes recordings: every provider that can do that here can also listen on a call, not
 * the other way round: AssemblyAI only listens.) A configuration stored before this check still ends its calls at once
 * with the reason on the run.
 * (The composition root's speech adapters open exactly these: VoiceRuntimeProvidersTest checks both ways.)
 */
public final class VoiceRuntimeProviders {

    /**
     * Speech-to-text providers a call can listen with: Deepgram live, AssemblyAI streaming, and OpenAI realtime
     * transcription (OpenAI, a self-hosted OpenAI-compatible server, the installation's managed models).
     */
    public static final List<String> STT = List.of("deepgram", "assemblyai", "google", "speechmatics", "gladia",
            "elevenlabs", "cartesia", "sarvam", "smallest", "azure_speech", "openai", "speaches", "dograh",
            "simulator");
    /** Text-to-speech providers a call can speak with ("dograh": the installation's managed voice). */
    public static final List<String> TTS = List.of("elevenlabs", "cartesia", "deepgram", "openai", "speaches",
            "xai", "sarvam", "smallest", "camb", "rime", "lmnt", "inworld", "azure_speech", "google", "minimax",
            "dograh", "simulator");
    /**
     * Speech-to-speech models a call can run on (a realtime configuration): OpenAI's Realtime API and those that speak
     * its protocol, Azure OpenAI's and xAI's Grok; Gemini Live (Google AI and Vertex AI) and Ultravox, each on its own.
     */
    public static final List<String> REALTIME = List.of("openai_realtime", "azure_realtime", "grok_realtime",
            "google_realtime", "google_vertex_realtime", "ultravox_realtime");

    /**
     * The catalog's providers a call cannot use, by service, with the reason (what the refusal says): Hugging Face's
     * speech recognition does not stream.
     */
    public static final Map<ModelService, Map<String, String>> CANNOT_STREAM = Map.of(ModelService.STT, Map.of(
            "huggingface", "its inference API transcribes a whole recording per request (one POST of the audio, one"
                    + " text back) and does not stream, so nothing would be heard while the caller speaks"));

    private VoiceRuntimeProviders() {
    }

    /** Why {@code provider} cannot be used for {@code service} on a call. */
    private static String why(ModelService service, String provider) {
        String reason = CANNOT_STREAM.getOrDefault(service, Map.of()).get(provider);
        return "The voice runtime cannot use " + provider + " for " + what(service)
                + (reason != null ? ": " + reason + "; choose one of " : " yet: choose one of ")
                + String.join(", ", of(service).stream().filter(p -> !"simulator".equals(p)).toList());
    }

    public static List<String> of(ModelService service) {
        return switch (service) {
            case STT -> STT;
            case TTS -> TTS;
            case REALTIME -> REALTIME;
            default -> List.of();
        };
    }

    /**
     * A workflow's model_overrides (its configurations') naming a voice or a listener the runtime cannot use: refused
     * when the workflow is saved, as the organization's configuration is.
     */
    public static void checkOverrides(Map<String, Object> configurations) {
        if (configurations == null || !(configurations.get("model_overrides") instanceof Map<?, ?> overrides)) {
            return;
        }
        for (ModelService service : List.of(ModelService.STT, ModelService.TTS, ModelService.REALTIME)) {
            if (overrides.get(service.wireName()) instanceof Map<?, ?> section) {
                refuseUnusable(service, section, "model_overrides." + service.wireName());
                if (section.get(ModelSettingsCheck.FALLBACKS) instanceof List<?> fallbacks) {
                    for (int i = 0; i < fallbacks.size(); i++) {
                        if (fallbacks.get(i) instanceof Map<?, ?> fallback) {
                            refuseUnusable(service, fallback, "model_overrides." + service.wireName() + ".fallbacks."
                                    + i);
                        }
                    }
                }
            }
        }
    }

    private static void refuseUnusable(ModelService service, Map<?, ?> section, String where) {
        if (section.get("provider") instanceof String provider && !of(service).contains(provider)) {
            throw new DomainRuleViolation(where + ": " + why(service, provider));
        }
    }

    /** Whether {@code service} is one the runtime must speak (speech-to-text, text-to-speech, speech-to-speech). */
    public static boolean checks(ModelService service) {
        return service == ModelService.STT || service == ModelService.TTS || service == ModelService.REALTIME;
    }

    private static String what(ModelService service) {
        return switch (service) {
            case STT -> "speech-to-text";
            case TTS -> "text-to-speech";
            default -> "speech-to-speech";
        };
    }

    /**
     * Why checked {@code settings} (a pipeline's stt or tts, provider first) cannot be used on a call, at which field;
     * none when they can.
     */
    public static Optional<SettingsProblem> problem(ModelService service, Map<String, Object> settings,
            List<Object> loc) {
        if (settings == null) {
            return Optional.empty();
        }
        String provider = String.valueOf(settings.get("provider"));
        if (checks(service) && !of(service).contains(provider)) {
            return Optional.of(new SettingsProblem(ModelSettingsCheck.append(loc, "provider"),
                    why(service, provider) + (service == ModelService.REALTIME ? "" : " (or simulator, for tests)"),
                    "voice_runtime_unsupported", provider));
        }
        if (service == ModelService.TTS && "elevenlabs".equals(provider)
                && settings.get("speed") instanceof Number speed
                && (speed.doubleValue() < ELEVENLABS_SPEED_MIN || speed.doubleValue() > ELEVENLABS_SPEED_MAX)
                && speed.doubleValue() >= 0.1 && speed.doubleValue() <= 2.0) { // beyond those the catalog refuses it
            // the catalog (the reference's) allows 0.1-2.0, ElevenLabs refuses outside its range: say so when saved
            return Optional.of(new SettingsProblem(ModelSettingsCheck.append(loc, "speed"),
                    "ElevenLabs speaks at " + ELEVENLABS_SPEED_MIN + " to " + ELEVENLABS_SPEED_MAX
                            + " times its normal pace: choose a speed in that range", "less_than_equal", speed));
        }
        return Optional.empty();
    }

    /** ElevenLabs' voice_settings.speed range. */
    public static final double ELEVENLABS_SPEED_MIN = 0.7;
    public static final double ELEVENLABS_SPEED_MAX = 1.2;
}
