package dev.voiceagent.domain.model;

import dev.voiceagent.domain.model.ModelField.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every model provider an organization can configure, per service, with each field's type, default,
 * range and whether it is a secret: the reference's provider schemas (src/spec/reference-openapi.json,
 * the members of BYOKPipelineAIModelConfiguration's and BYOKRealtimeAIModelConfiguration's unions),
 * transcribed as data. ModelCatalogTest checks it against that document field by field.
 */
public final class ModelCatalog {

    /** The managed ("dograh") section of a v2 configuration: one key and the voice it speaks with. */
    public static final ModelProvider MANAGED = new ModelProvider(ModelService.LLM, "dograh",
            "DograhManagedAIModelConfiguration", "Models managed by the installation", List.of(
                f("api_key", Type.TEXT, true, false, null, null, false, null, null, null,
                        null, null),
                f("voice", Type.TEXT, false, false, "default", null, false, null, null, null,
                        null, null),
                f("speed", Type.NUMBER, false, false, 1.0, 0.5, false, 2.0, null, null,
                        null, null),
                f("language", Type.TEXT, false, false, "multi", null, false, null, null, null,
                        null, null)));

    /**
     * Not in the reference: this service's built-in simulator language model (deterministic, no key, calls
     * no model), for laptops, demos and tests.
     */
    public static final ModelProvider SIMULATOR = new ModelProvider(ModelService.LLM, "simulator",
            "SimulatorLLMConfiguration", "Built into this service: a deterministic simulator for laptops, demos and"
                    + " tests (takes the edge whose condition shares the most words with the message, answers with the"
                    + " node's first sentence); calls no model and needs no key", List.of(
                f("model", Type.TEXT, false, false, "simulator", null, false, null, null, "Always the simulator.",
                        List.of("simulator"), null)));

    /**
     * Not in the reference: the simulator's speech-to-text, an oracle that knows what the simulator's callee said (it
     * recognizes the callee's own audio) and reports each line when the caller stops speaking; anything else it hears
     * is "(inaudible)". For laptops and tests: calls no provider and needs no key.
     */
    public static final ModelProvider SIMULATOR_STT = new ModelProvider(ModelService.STT, "simulator",
            "SimulatorSTTConfiguration", "Built into this service: a simulator speech-to-text for laptops, demos and"
                    + " tests (knows the lines of the simulator's callee, an oracle); calls no provider and needs no"
                    + " key", List.of(
                f("model", Type.TEXT, false, false, "simulator", null, false, null, null, "Always the simulator.",
                        List.of("simulator"), null)));

    /**
     * Not in the reference: the simulator's text-to-speech, FreeTTS's kevin16 voice (a pure-Java synthesizer) on
     * this service's own CPU: real, plain speech with no provider and no key.
     */
    public static final ModelProvider SIMULATOR_TTS = new ModelProvider(ModelService.TTS, "simulator",
            "SimulatorTTSConfiguration", "Built into this service: a simulator text-to-speech for laptops, demos and"
                    + " tests (FreeTTS's kevin16 voice, synthesized on this service's CPU); calls no provider and"
                    + " needs no key", List.of(
                f("model", Type.TEXT, false, false, "simulator", null, false, null, null, "Always the simulator.",
                        List.of("simulator"), null)));

    /** The providers built into this service rather than taken from the reference. */
    public static final List<ModelProvider> BUILT_IN = List.of(SIMULATOR, SIMULATOR_STT, SIMULATOR_TTS);

    private static final List<ModelProvider> ALL = build();

    private ModelCatalog() {
    }

    public static List<ModelProvider> all() {
        return ALL;
    }

    public static List<ModelProvider> of(ModelService service) {
        return ALL.stream().filter(p -> p.service() == service).toList();
    }

    public static Optional<ModelProvider> find(ModelService service, String provider) {
        return ALL.stream().filter(p -> p.service() == service && p.id().equals(provider)).findFirst();
    }

    private static ModelField f(String name, Type type, boolean required, boolean nullable, Object defaultValue,
            Double lower, boolean lowerExclusive, Double upper, List<String> options, String description,
            List<String> examples, Map<String, Object> hints) {
        return new ModelField(name, type, required, nullable, defaultValue, lower, lowerExclusive, upper, options,
                ModelField.SECRETS.contains(name), description, examples, hints);
    }

    @SuppressWarnings("checkstyle:MethodLength")
    private static List<ModelProvider> build() {
        List<ModelProvider> all = new ArrayList<>();
        all.add(new ModelProvider(ModelService.LLM, "openai", "OpenAILLMService", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "gpt-4.1", null, false, null, null, "OpenAI chat model to use.",
                        List.of("gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-3.5-turbo"), Map.of("allow_custom_input", true)),
                f("base_url", Type.TEXT, false, false, "https://api.openai.com/v1", null, false, null, null, "Override only if using an OpenAI-compatible API (e.g. local LLM, proxy).",
                        null, null))));
        all.add(new ModelProvider(ModelService.LLM, "atlascloud", "AtlasCloudLLMService", "Atlas Cloud OpenAI-compatible LLM API.", List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "qwen/qwen3.5-flash", null, false, null, null, "Atlas Cloud OpenAI-compatible chat model identifier.",
                        List.of("qwen/qwen3.5-flash", "deepseek-ai/deepseek-v4-pro"), Map.of("allow_custom_input", true)),
                f("base_url", Type.TEXT, false, false, "https://api.atlascloud.ai/v1", null, false, null, null, "Atlas Cloud OpenAI-compatible API endpoint.",
                        null, null))));
        all.add(new ModelProvider(ModelService.LLM, "google_vertex", "GoogleVertexLLMConfiguration", null, List.of(
                f("api_key", Type.KEY, false, true, null, null, false, null, null, "Not used for Vertex AI — authentication is via the service account in `credentials` (or ADC). Leave blank.",
                        null, null),
                f("model", Type.TEXT, false, false, "gemini-3.5-flash", null, false, null, null, "Gemini model on Vertex AI.",
                        List.of("gemini-3.1-flash-lite", "gemini-3.5-flash", "gemini-3.5-flash-lite"), Map.of("allow_custom_input", true)),
                f("project_id", Type.TEXT, true, false, null, null, false, null, null, "Google Cloud project ID for Vertex AI.",
                        null, null),
                f("location", Type.TEXT, false, false, "global", null, false, null, null, "GCP region for the Vertex AI endpoint (e.g. 'global').",
                        null, null),
                f("credentials", Type.TEXT, false, true, null, null, false, null, null, "Paste the entire service-account JSON file contents. If omitted, falls back to Application Default Credentials (ADC).",
                        null, Map.of("multiline", true)))));
        all.add(new ModelProvider(ModelService.LLM, "groq", "GroqLLMService", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "llama-3.3-70b-versatile", null, false, null, null, "Groq-hosted model identifier.",
                        List.of("llama-3.3-70b-versatile", "deepseek-r1-distill-llama-70b", "qwen-qwq-32b", "meta-llama/llama-4-scout-17b-16e-instruct", "meta-llama/llama-4-maverick-17b-128e-instruct", "gemma2-9b-it", "llama-3.1-8b-instant", "openai/gpt-oss-120b"), Map.of("allow_custom_input", true)))));
        all.add(new ModelProvider(ModelService.LLM, "openrouter", "OpenRouterLLMConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "openai/gpt-4.1", null, false, null, null, "OpenRouter model slug in 'vendor/model' form.",
                        List.of("openai/gpt-4.1", "openai/gpt-4.1-mini", "anthropic/claude-sonnet-4", "google/gemini-2.5-flash", "meta-llama/llama-3.3-70b-instruct", "deepseek/deepseek-chat-v3-0324"), Map.of("allow_custom_input", true)),
                f("base_url", Type.TEXT, false, false, "https://openrouter.ai/api/v1", null, false, null, null, "Override only if proxying OpenRouter through your own gateway.",
                        null, null))));
        all.add(new ModelProvider(ModelService.LLM, "google", "GoogleLLMService", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "gemini-3.5-flash", null, false, null, null, "Gemini model on Google AI Studio (not Vertex).",
                        List.of("gemini-3.5-flash", "gemini-3.5-flash-lite"), Map.of("allow_custom_input", true)))));
        all.add(new ModelProvider(ModelService.LLM, "azure", "AzureLLMService", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "gpt-4.1-mini", null, false, null, null, "Azure deployment name (not the upstream OpenAI model id).",
                        List.of("gpt-4.1-mini"), Map.of("allow_custom_input", true)),
                f("endpoint", Type.TEXT, true, false, null, null, false, null, null, "Azure OpenAI resource endpoint (e.g. https://<resource>.openai.azure.com).",
                        null, null))));
        all.add(new ModelProvider(ModelService.LLM, "dograh", "DograhLLMService", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "default", null, false, null, null, "Dograh-hosted model tier.",
                        List.of("default", "accurate", "fast", "lite", "zen"), Map.of("allow_custom_input", true)))));
        all.add(new ModelProvider(ModelService.LLM, "aws_bedrock", "AWSBedrockLLMConfiguration", null, List.of(
                f("api_key", Type.KEY, false, true, null, null, false, null, null, "Not used for Bedrock — authentication is via the AWS credentials above. Leave blank.",
                        null, null),
                f("model", Type.TEXT, false, false, "us.amazon.nova-pro-v1:0", null, false, null, null, "Bedrock model ID — include the region inference-profile prefix (e.g. 'us.').",
                        List.of("us.amazon.nova-pro-v1:0", "us.amazon.nova-lite-v1:0", "us.amazon.nova-micro-v1:0", "us.anthropic.claude-sonnet-4-20250514-v1:0", "us.anthropic.claude-3-5-sonnet-20241022-v2:0", "us.anthropic.claude-haiku-4-5-20251001-v1:0"), Map.of("allow_custom_input", true)),
                f("aws_access_key", Type.TEXT, false, false, "", null, false, null, null, "AWS access key ID with bedrock:InvokeModel permission.",
                        null, null),
                f("aws_secret_key", Type.TEXT, false, false, "", null, false, null, null, "AWS secret access key paired with the access key ID.",
                        null, null),
                f("aws_region", Type.TEXT, false, false, "us-east-1", null, false, null, null, "AWS region where the Bedrock model is available.",
                        null, null))));
        all.add(new ModelProvider(ModelService.LLM, "speaches", "SpeachesLLMConfiguration", "Self-hosted OpenAI-compatible local models. See the Speaches project for setup and supported backends.", List.of(
                f("api_key", Type.KEY, false, true, null, null, false, null, null, "Usually not required for self-hosted endpoints. Leave blank unless your server enforces one.",
                        null, null),
                f("model", Type.TEXT, false, false, "llama3", null, false, null, null, "Model name as exposed by your OpenAI-compatible server.",
                        List.of("llama3", "mistral", "phi3", "qwen2", "gemma2", "deepseek-r1"), Map.of("allow_custom_input", true)),
                f("base_url", Type.TEXT, false, false, "http://localhost:11434/v1", null, false, null, null, "OpenAI-compatible endpoint (Ollama, vLLM, etc.).",
                        null, null))));
        all.add(new ModelProvider(ModelService.LLM, "huggingface", "HuggingFaceLLMConfiguration", "Hosted Hugging Face Inference Providers API for usage-based inference.", List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "openai/gpt-oss-120b:cerebras", null, false, null, null, "Hugging Face chat-completion model identifier, optionally with provider suffix.",
                        List.of("openai/gpt-oss-120b:cerebras", "deepseek-ai/DeepSeek-R1:fastest", "Qwen/Qwen3-Coder-480B-A35B-Instruct:fastest"), Map.of("allow_custom_input", true)),
                f("base_url", Type.TEXT, false, false, "https://router.huggingface.co/v1", null, false, null, null, "Hugging Face OpenAI-compatible chat-completions router base URL.",
                        null, null),
                f("bill_to", Type.TEXT, false, true, null, null, false, null, null, "Optional Hugging Face organization or user to bill using X-HF-Bill-To.",
                        null, null))));
        all.add(new ModelProvider(ModelService.LLM, "minimax", "MiniMaxLLMConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "MiniMax-M2.7", null, false, null, null, "MiniMax chat model.",
                        List.of("MiniMax-M2.7", "MiniMax-M2.7-highspeed", "MiniMax-M3"), Map.of("allow_custom_input", true)),
                f("base_url", Type.TEXT, false, false, "https://api.minimax.io/v1", null, false, null, null, "MiniMax OpenAI-compatible API endpoint.",
                        null, null),
                f("temperature", Type.NUMBER, false, false, 1.0, 0.0, true, 2.0, null, "Sampling temperature. MiniMax requires > 0.",
                        null, null))));
        all.add(new ModelProvider(ModelService.LLM, "sarvam", "SarvamLLMConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "sarvam-105b", null, false, null, null, "Sarvam chat model.",
                        List.of("sarvam-105b"), Map.of("allow_custom_input", true)),
                f("temperature", Type.NUMBER, false, false, 0.5, 0.0, false, 2.0, null, "Sampling temperature. Sarvam recommends 0.5 for balanced conversational responses.",
                        null, null))));
        all.add(new ModelProvider(ModelService.TTS, "deepgram", "DeepgramTTSConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("voice", Type.TEXT, false, false, "aura-2-helena-en", null, false, null, null, "Deepgram voice ID (model is inferred from the 'aura-N' prefix).",
                        null, null))));
        all.add(new ModelProvider(ModelService.TTS, "google", "GoogleTTSConfiguration", null, List.of(
                f("api_key", Type.KEY, false, true, null, null, false, null, null, "Not used for Google Cloud TTS. Leave blank.",
                        null, null),
                f("model", Type.TEXT, false, false, "chirp_3_hd", null, false, null, null, "Google Cloud low-latency TTS engine. Dograh maps this to Pipecat's streaming Google TTS service for Chirp 3 HD and Journey voices.",
                        List.of("chirp_3_hd"), Map.of("allow_custom_input", true)),
                f("voice", Type.TEXT, false, false, "en-US-Chirp3-HD-Charon", null, false, null, null, "Google Cloud voice name. Use a Chirp 3 HD or Journey voice for streaming TTS.",
                        List.of("en-US-Chirp3-HD-Charon"), Map.of("allow_custom_input", true)),
                f("language", Type.TEXT, false, false, "en-US", null, false, null, null, "BCP-47 language code for synthesis.",
                        List.of("ar-XA", "bn-IN", "bg-BG", "yue-HK", "hr-HR", "cs-CZ", "da-DK", "nl-BE", "nl-NL", "en-AU", "en-IN", "en-GB", "en-US", "et-EE", "fi-FI", "fr-CA", "fr-FR", "de-DE", "el-GR", "gu-IN", "he-IL", "hi-IN", "hu-HU", "id-ID", "it-IT", "ja-JP", "kn-IN", "ko-KR", "lv-LV", "lt-LT", "ml-IN", "cmn-CN", "mr-IN", "nb-NO", "pl-PL", "pt-BR", "pa-IN", "ro-RO", "ru-RU", "sr-RS", "sk-SK", "sl-SI", "es-ES", "es-US", "sw-KE", "sv-SE", "ta-IN", "te-IN", "th-TH", "tr-TR", "uk-UA", "ur-IN", "vi-VN"), Map.of("allow_custom_input", true)),
                f("speed", Type.NUMBER, false, false, 1.0, 0.25, false, 2.0, null, "Speech speed multiplier for Google streaming TTS.",
                        null, null),
                f("location", Type.TEXT, false, true, null, null, false, null, null, "Optional Google Cloud regional Text-to-Speech endpoint (for example 'us-central1'). Leave blank to use the default endpoint.",
                        null, null),
                f("credentials", Type.TEXT, false, true, null, null, false, null, null, "Paste the entire Google Cloud service-account JSON. If omitted, the server falls back to Application Default Credentials (ADC).",
                        null, Map.of("multiline", true)))));
        all.add(new ModelProvider(ModelService.TTS, "openai", "OpenAITTSService", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "gpt-4o-mini-tts", null, false, null, null, "OpenAI TTS model.",
                        List.of("gpt-4o-mini-tts"), null),
                f("voice", Type.TEXT, false, false, "alloy", null, false, null, null, "OpenAI TTS voice name.",
                        null, null),
                f("base_url", Type.TEXT, false, false, "https://api.openai.com/v1", null, false, null, null, "Override only if using an OpenAI-compatible API (e.g. local TTS, proxy).",
                        null, null))));
        all.add(new ModelProvider(ModelService.TTS, "elevenlabs", "ElevenlabsTTSConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("voice", Type.TEXT, false, false, "21m00Tcm4TlvDq8ikWAM", null, false, null, null, "ElevenLabs voice ID from your Voice Library.",
                        null, null),
                f("speed", Type.NUMBER, false, false, 1.0, 0.1, false, 2.0, null, "Speed of the voice.",
                        null, null),
                f("model", Type.TEXT, false, false, "eleven_flash_v2_5", null, false, null, null, "ElevenLabs TTS model.",
                        List.of("eleven_flash_v2_5"), Map.of("allow_custom_input", true)),
                f("base_url", Type.TEXT, false, false, "https://api.elevenlabs.io", null, false, null, null, "ElevenLabs API base URL. Override to use a Data Residency endpoint (e.g. https://api.eu.residency.elevenlabs.io) for GDPR / HIPAA / regional compliance.",
                        null, null))));
        all.add(new ModelProvider(ModelService.TTS, "cartesia", "CartesiaTTSConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "sonic-3.5", null, false, null, null, "Cartesia TTS model.",
                        List.of("sonic-3.5", "sonic-3"), null),
                f("voice", Type.TEXT, false, false, "3faa81ae-d3d8-4ab1-9e44-e50e46d33c30", null, false, null, null, "Cartesia voice UUID from your Cartesia dashboard.",
                        null, null),
                f("speed", Type.NUMBER, false, false, 1.0, 0.6, false, 1.5, null, "Speed of the voice.",
                        null, null),
                f("volume", Type.NUMBER, false, false, 1.0, 0.5, false, 2.0, null, "Volume multiplier for generated speech.",
                        null, null),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "Cartesia language code for TTS synthesis (e.g. 'en', 'tr', 'fr', 'de').",
                        null, Map.of("allow_custom_input", true)))));
        all.add(new ModelProvider(ModelService.TTS, "inworld", "InworldTTSConfiguration", "Inworld AI streaming text-to-speech with built-in and cloned voices. Defaults to the Ashley system voice on inworld-tts-2.", List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "inworld-tts-2", null, false, null, null, "Inworld TTS model.",
                        List.of("inworld-tts-2"), Map.of("allow_custom_input", true)),
                f("voice", Type.TEXT, false, false, "Ashley", null, false, null, null, "Inworld voice ID. Use Ashley for the default warm English voice, or a workspace voice ID for a cloned/custom voice.",
                        List.of("Ashley"), Map.of("allow_custom_input", true)),
                f("language", Type.TEXT, false, false, "en-US", null, false, null, null, "BCP-47 language code for synthesis.",
                        List.of("en-US"), Map.of("allow_custom_input", true)),
                f("speed", Type.NUMBER, false, false, 1.0, 0.25, false, 4.0, null, "Speech speed multiplier.",
                        null, null),
                f("delivery_mode", Type.OPTIONS, false, false, "BALANCED", null, false, null, List.of("STABLE", "BALANCED", "CREATIVE"), "Controls stability versus expressiveness for inworld-tts-2 (STABLE, BALANCED, or CREATIVE).",
                        null, null))));
        all.add(new ModelProvider(ModelService.TTS, "dograh", "DograhTTSService", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "default", null, false, null, null, "Dograh TTS tier.",
                        List.of("default"), null),
                f("voice", Type.TEXT, false, false, "default", null, false, null, null, "Voice preset.",
                        null, Map.of("allow_custom_input", true)),
                f("speed", Type.NUMBER, false, false, 1.0, 0.5, false, 2.0, null, "Speed of the voice.",
                        null, null))));
        all.add(new ModelProvider(ModelService.TTS, "sarvam", "SarvamTTSConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "bulbul:v2", null, false, null, null, "Sarvam TTS model (voice list depends on this).",
                        List.of("bulbul:v2", "bulbul:v3"), null),
                f("voice", Type.TEXT, false, false, "anushka", null, false, null, null, "Sarvam voice name or custom voice ID.",
                        List.of("anushka", "manisha", "vidya", "arya", "abhilash", "karun", "hitesh"), Map.of("allow_custom_input", true, "model_options", Map.of("bulbul:v2", List.of("anushka", "manisha", "vidya", "arya", "abhilash", "karun", "hitesh"), "bulbul:v3", List.of("shubh", "aditya", "ritu", "priya", "neha", "rahul", "pooja", "rohan", "simran", "kavya", "amit", "dev", "ishita", "shreya", "ratan", "varun", "manan", "sumit", "roopa", "kabir", "aayan", "ashutosh", "advait", "amelia", "sophia", "anand", "tanya", "tarun", "sunny", "mani", "gokul", "vijay", "shruti", "suhani", "mohit", "kavitha", "rehan", "soham", "rupali")))),
                f("language", Type.TEXT, false, false, "hi-IN", null, false, null, null, "BCP-47 Indian-language code (e.g. hi-IN, en-IN).",
                        List.of("bn-IN", "en-IN", "gu-IN", "hi-IN", "kn-IN", "ml-IN", "mr-IN", "od-IN", "pa-IN", "ta-IN", "te-IN", "as-IN"), null),
                f("speed", Type.NUMBER, false, false, 1.0, 0.5, false, 2.0, null, "Speech speed multiplier.",
                        null, null))));
        all.add(new ModelProvider(ModelService.TTS, "camb", "CambTTSConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "mars-flash", null, false, null, null, "Camb.ai TTS model.",
                        List.of("mars-flash", "mars-pro", "mars-instruct"), null),
                f("voice", Type.TEXT, false, false, "147320", null, false, null, null, "Camb.ai voice ID.",
                        null, null),
                f("language", Type.TEXT, false, false, "en-us", null, false, null, null, "BCP-47 language code.",
                        null, null))));
        all.add(new ModelProvider(ModelService.TTS, "rime", "RimeTTSConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "arcana", null, false, null, null, "Rime TTS model.",
                        List.of("arcana", "mistv3", "mistv2", "mist"), Map.of("allow_custom_input", true)),
                f("voice", Type.TEXT, false, false, "celeste", null, false, null, null, "Rime voice ID.",
                        null, null),
                f("speed", Type.NUMBER, false, false, 1.0, 0.5, false, 2.0, null, "Speech speed multiplier.",
                        null, null),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "ISO 639-1 language code.",
                        List.of("en", "de", "fr", "es", "hi"), Map.of("allow_custom_input", true)))));
        all.add(new ModelProvider(ModelService.TTS, "speaches", "SpeachesTTSConfiguration", "Self-hosted OpenAI-compatible local models. See the Speaches project for setup and supported backends.", List.of(
                f("api_key", Type.KEY, false, true, null, null, false, null, null, "Usually not required for self-hosted TTS. Leave blank unless enforced.",
                        null, null),
                f("model", Type.TEXT, false, false, "kokoro", null, false, null, null, "Model name as served by your TTS endpoint (e.g. Kokoro-FastAPI).",
                        List.of("hexgrad/Kokoro-82M"), Map.of("allow_custom_input", true)),
                f("voice", Type.TEXT, false, false, "af_heart", null, false, null, null, "Voice ID for the TTS engine.",
                        null, Map.of("allow_custom_input", true)),
                f("base_url", Type.TEXT, false, false, "http://localhost:8000/v1", null, false, null, null, "OpenAI-compatible TTS endpoint (Kokoro-FastAPI, etc.).",
                        null, null),
                f("speed", Type.NUMBER, false, false, 1.0, 0.25, false, 4.0, null, "Speech speed (0.25 to 4.0).",
                        null, null))));
        all.add(new ModelProvider(ModelService.TTS, "minimax", "MiniMaxTTSConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "speech-2.8-hd", null, false, null, null, "MiniMax TTS model.",
                        List.of("speech-2.8-hd", "speech-2.8-turbo"), null),
                f("voice", Type.TEXT, false, false, "English_Graceful_Lady", null, false, null, null, "MiniMax voice ID.",
                        List.of("English_Graceful_Lady", "English_Insightful_Speaker", "English_radiant_girl", "English_Persuasive_Man", "English_Lucky_Robot", "English_expressive_narrator"), Map.of("allow_custom_input", true)),
                f("base_url", Type.TEXT, false, false, "https://api.minimax.io/v1/t2a_v2", null, false, null, null, "MiniMax TTS API endpoint (must include the /v1/t2a_v2 path). Defaults to the global endpoint; override with https://api.minimaxi.chat/v1/t2a_v2 (mainland China) or https://api-uw.minimax.io/v1/t2a_v2 (US-West).",
                        null, null),
                f("speed", Type.NUMBER, false, false, 1.0, 0.5, false, 2.0, null, "Speech speed (0.5 to 2.0).",
                        null, null),
                f("group_id", Type.TEXT, true, false, null, null, false, null, null, "MiniMax Group ID (found in your MiniMax dashboard under Account → Group).",
                        null, null))));
        all.add(new ModelProvider(ModelService.TTS, "azure_speech", "AzureSpeechTTSConfiguration", "Azure Cognitive Services Speech — TTS and STT via the Azure Speech SDK.", List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "neural", null, false, null, null, "Azure Speech synthesis engine (neural voices only).",
                        List.of("neural"), null),
                f("region", Type.TEXT, false, false, "eastus", null, false, null, null, "Azure region for Speech Services (e.g. 'eastus', 'westeurope').",
                        List.of("eastus", "eastus2", "westus", "westus2", "westus3", "centralus", "northcentralus", "southcentralus", "westcentralus", "westeurope", "northeurope", "uksouth", "ukwest", "francecentral", "switzerlandnorth", "germanywestcentral", "norwayeast", "australiaeast", "eastasia", "southeastasia", "japaneast", "japanwest", "koreacentral", "centralindia", "southindia", "brazilsouth"), null),
                f("voice", Type.TEXT, false, false, "en-US-AriaNeural", null, false, null, null, "Azure Neural voice name (e.g. 'en-US-AriaNeural').",
                        List.of("en-US-AriaNeural", "en-US-GuyNeural", "en-US-JennyNeural", "en-US-DavisNeural", "en-US-AmberNeural", "en-US-AnaNeural", "en-US-AshleyNeural", "en-US-BrandonNeural", "en-US-ChristopherNeural", "en-US-ElizabethNeural", "en-US-EricNeural", "en-US-JacobNeural", "en-US-MichelleNeural", "en-US-MonicaNeural", "en-US-NancyNeural", "en-US-RogerNeural", "en-US-SaraNeural", "en-US-SteffanNeural", "en-US-TonyNeural"), Map.of("allow_custom_input", true)),
                f("language", Type.TEXT, false, false, "en-US", null, false, null, null, "BCP-47 language code for synthesis.",
                        List.of("en-US", "en-GB", "en-AU", "en-CA", "en-IN", "es-ES", "es-MX", "fr-FR", "fr-CA", "de-DE", "it-IT", "ja-JP", "ko-KR", "zh-CN", "zh-HK", "zh-TW", "pt-BR", "pt-PT", "ru-RU", "ar-SA", "nl-NL", "pl-PL", "sv-SE", "hi-IN"), Map.of("allow_custom_input", true)),
                f("speed", Type.NUMBER, false, false, 1.0, 0.5, false, 2.0, null, "Speech speed multiplier (0.5 to 2.0).",
                        null, null))));
        all.add(new ModelProvider(ModelService.TTS, "smallest", "SmallestAITTSConfiguration", "Smallest AI ultralow-latency TTS (Waves) and STT (Pulse) APIs.", List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "lightning_v3.1", null, false, null, null, "Smallest AI TTS model. lightning_v3.1_pro is the premium pool (American, British, Indian accents); lightning_v3.1 is the standard pool with 217 voices across 12 languages.",
                        List.of("lightning_v3.1", "lightning_v3.1_pro"), null),
                f("voice", Type.TEXT, false, false, "sophia", null, false, null, null, "Smallest AI voice ID. Available voices differ by model: lightning_v3.1 has a broad multilingual pool; lightning_v3.1_pro has premium American, British, and Indian accent voices (English + Hindi only).",
                        List.of("sophia", "avery", "liam", "lucas", "olivia", "ryan", "freya", "william", "devansh", "arjun", "niharika", "maya", "dhruv", "mia", "maithili"), Map.of("allow_custom_input", true, "model_options", Map.of("lightning_v3.1", List.of("sophia", "avery", "liam", "lucas", "olivia", "ryan", "freya", "william", "devansh", "arjun", "niharika", "maya", "dhruv", "mia", "maithili"), "lightning_v3.1_pro", List.of("meher", "rhea", "aviraj", "cressida", "willow", "maverick")))),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "ISO 639-1 language code for synthesis.",
                        List.of("en", "hi", "fr", "de", "es", "it", "nl", "pl", "ru", "ar", "bn", "gu", "he", "kn", "mr", "ta"), Map.of("allow_custom_input", true)),
                f("speed", Type.NUMBER, false, false, 1.0, 0.5, false, 2.0, null, "Speech speed multiplier (0.5 to 2.0).",
                        null, null))));
        all.add(new ModelProvider(ModelService.TTS, "xai", "XAITTSConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("voice", Type.TEXT, false, false, "eve", null, false, null, null, "xAI voice persona.",
                        List.of("eve", "ara", "leo", "rex", "sal"), Map.of("allow_custom_input", true)),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "BCP-47 language code for synthesis (e.g. 'en', 'fr', 'de'), or 'auto' for automatic language detection.",
                        null, Map.of("allow_custom_input", true)))));
        all.add(new ModelProvider(ModelService.TTS, "lmnt", "LmntTTSConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "aurora", null, false, null, null, "LMNT TTS model. 'aurora' is the general-purpose model; 'blizzard' targets more expressive, conversational speech.",
                        List.of("aurora", "blizzard"), null),
                f("voice", Type.TEXT, false, false, "lily", null, false, null, null, "LMNT voice ID. Use a stock voice name or a custom voice ID from your LMNT account.",
                        List.of("lily", "daniel", "ava", "caleb", "leah", "zeke"), Map.of("allow_custom_input", true)),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "Language code for synthesis (e.g. 'en', 'es', 'fr', 'de', 'pt', 'zh', 'ko', 'hi').",
                        null, Map.of("allow_custom_input", true)))));
        all.add(new ModelProvider(ModelService.STT, "deepgram", "DeepgramSTTConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "nova-3-general", null, false, null, null, "Deepgram STT model.",
                        List.of("nova-3-general", "nova-3-medical", "flux-general-en", "flux-general-multi"), Map.of("allow_custom_input", true)),
                f("language", Type.TEXT, false, false, "multi", null, false, null, null, "Language code. 'multi' enables Nova-3 auto-detect and omits language hints for Flux multilingual auto-detect.",
                        List.of("multi", "ar", "ar-AE", "ar-SA", "ar-QA", "ar-KW", "ar-SY", "ar-LB", "ar-PS", "ar-JO", "ar-EG", "ar-SD", "ar-TD", "ar-MA", "ar-DZ", "ar-TN", "ar-IQ", "ar-IR", "be", "bn", "bs", "bg", "ca", "cs", "da", "da-DK", "de", "de-CH", "el", "en", "en-US", "en-AU", "en-GB", "en-IN", "en-NZ", "es", "es-419", "et", "fa", "fi", "fr", "fr-CA", "he", "hi", "hr", "hu", "id", "it", "ja", "kn", "ko", "ko-KR", "lt", "lv", "mk", "mr", "ms", "nl", "nl-BE", "no", "pl", "pt", "pt-BR", "pt-PT", "ro", "ru", "sk", "sl", "sr", "sv", "sv-SE", "ta", "te", "th", "tl", "tr", "uk", "ur", "vi", "zh-CN", "zh-TW"), Map.of("allow_custom_input", true, "model_options", Map.of("flux-general-en", List.of("en"), "flux-general-multi", List.of("multi", "de", "en", "es", "fr", "hi", "it", "ja", "nl", "pt", "ru"), "nova-3-general", List.of("multi", "ar", "ar-AE", "ar-SA", "ar-QA", "ar-KW", "ar-SY", "ar-LB", "ar-PS", "ar-JO", "ar-EG", "ar-SD", "ar-TD", "ar-MA", "ar-DZ", "ar-TN", "ar-IQ", "ar-IR", "be", "bn", "bs", "bg", "ca", "cs", "da", "da-DK", "de", "de-CH", "el", "en", "en-US", "en-AU", "en-GB", "en-IN", "en-NZ", "es", "es-419", "et", "fa", "fi", "fr", "fr-CA", "he", "hi", "hr", "hu", "id", "it", "ja", "kn", "ko", "ko-KR", "lt", "lv", "mk", "mr", "ms", "nl", "nl-BE", "no", "pl", "pt", "pt-BR", "pt-PT", "ro", "ru", "sk", "sl", "sr", "sv", "sv-SE", "ta", "te", "th", "tl", "tr", "uk", "ur", "vi", "zh-CN", "zh-TW"), "nova-3-medical", List.of("multi", "ar", "ar-AE", "ar-SA", "ar-QA", "ar-KW", "ar-SY", "ar-LB", "ar-PS", "ar-JO", "ar-EG", "ar-SD", "ar-TD", "ar-MA", "ar-DZ", "ar-TN", "ar-IQ", "ar-IR", "be", "bn", "bs", "bg", "ca", "cs", "da", "da-DK", "de", "de-CH", "el", "en", "en-US", "en-AU", "en-GB", "en-IN", "en-NZ", "es", "es-419", "et", "fa", "fi", "fr", "fr-CA", "he", "hi", "hr", "hu", "id", "it", "ja", "kn", "ko", "ko-KR", "lt", "lv", "mk", "mr", "ms", "nl", "nl-BE", "no", "pl", "pt", "pt-BR", "pt-PT", "ro", "ru", "sk", "sl", "sr", "sv", "sv-SE", "ta", "te", "th", "tl", "tr", "uk", "ur", "vi", "zh-CN", "zh-TW")))))));
        all.add(new ModelProvider(ModelService.STT, "cartesia", "CartesiaSTTConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "ink-whisper", null, false, null, null, "Cartesia STT model.",
                        List.of("ink-2", "ink-whisper"), null),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "ISO 639-1 language code. ink-2 currently supports English only.",
                        List.of("en", "zh", "de", "es", "ru", "ko", "fr", "ja", "pt", "tr", "pl", "ca", "nl", "ar", "sv", "it", "id", "hi", "fi", "vi", "he", "uk", "el", "ms", "cs", "ro", "da", "hu", "ta", "no", "th", "ur", "hr", "bg", "lt", "la", "mi", "ml", "cy", "sk", "te", "fa", "lv", "bn", "sr", "az", "sl", "kn", "et", "mk", "br", "eu", "is", "hy", "ne", "mn", "bs", "kk", "sq", "sw", "gl", "mr", "pa", "si", "km", "sn", "yo", "so", "af", "oc", "ka", "be", "tg", "sd", "gu", "am", "yi", "lo", "uz", "fo", "ht", "ps", "tk", "nn", "mt", "sa", "lb", "my", "bo", "tl", "mg", "as", "tt", "haw", "ln", "ha", "ba", "jw", "su", "yue"), Map.of("model_options", Map.of("ink-2", List.of("en"), "ink-whisper", List.of("en", "zh", "de", "es", "ru", "ko", "fr", "ja", "pt", "tr", "pl", "ca", "nl", "ar", "sv", "it", "id", "hi", "fi", "vi", "he", "uk", "el", "ms", "cs", "ro", "da", "hu", "ta", "no", "th", "ur", "hr", "bg", "lt", "la", "mi", "ml", "cy", "sk", "te", "fa", "lv", "bn", "sr", "az", "sl", "kn", "et", "mk", "br", "eu", "is", "hy", "ne", "mn", "bs", "kk", "sq", "sw", "gl", "mr", "pa", "si", "km", "sn", "yo", "so", "af", "oc", "ka", "be", "tg", "sd", "gu", "am", "yi", "lo", "uz", "fo", "ht", "ps", "tk", "nn", "mt", "sa", "lb", "my", "bo", "tl", "mg", "as", "tt", "haw", "ln", "ha", "ba", "jw", "su", "yue")))))));
        all.add(new ModelProvider(ModelService.STT, "openai", "OpenAISTTConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "gpt-4o-transcribe", null, false, null, null, "OpenAI transcription model.",
                        List.of("gpt-4o-transcribe"), null),
                f("base_url", Type.TEXT, false, false, "https://api.openai.com/v1", null, false, null, null, "Override only if using an OpenAI-compatible API (e.g. local STT, proxy).",
                        null, null))));
        all.add(new ModelProvider(ModelService.STT, "google", "GoogleSTTConfiguration", null, List.of(
                f("api_key", Type.KEY, false, true, null, null, false, null, null, "Not used for Google Cloud STT. Leave blank.",
                        null, null),
                f("model", Type.TEXT, false, false, "latest_long", null, false, null, null, "Google Cloud Speech-to-Text V2 recognition model.",
                        List.of("latest_long", "latest_short", "chirp_3"), Map.of("allow_custom_input", true)),
                f("language", Type.TEXT, false, false, "en-US", null, false, null, null, "Primary BCP-47 language code for recognition.",
                        List.of("af-ZA", "am-ET", "ar-AE", "ar-BH", "ar-DZ", "ar-EG", "ar-IL", "ar-IQ", "ar-JO", "ar-KW", "ar-LB", "ar-MA", "ar-MR", "ar-OM", "ar-PS", "ar-QA", "ar-SA", "ar-SY", "ar-TN", "ar-XA", "ar-YE", "as-IN", "ast-ES", "az-AZ", "be-BY", "bg-BG", "bn-BD", "bn-IN", "bs-BA", "ca-ES", "ceb-PH", "ckb-IQ", "cmn-Hans-CN", "cmn-Hant-TW", "cs-CZ", "cy-GB", "da-DK", "de-AT", "de-CH", "de-DE", "el-GR", "en-AU", "en-GB", "en-HK", "en-IE", "en-IN", "en-NZ", "en-PH", "en-PK", "en-SG", "en-US", "es-419", "es-AR", "es-BO", "es-CL", "es-CO", "es-CR", "es-DO", "es-EC", "es-ES", "es-GT", "es-HN", "es-MX", "es-NI", "es-PA", "es-PE", "es-PR", "es-SV", "es-US", "es-UY", "es-VE", "et-EE", "eu-ES", "fa-IR", "ff-SN", "fi-FI", "fil-PH", "fr-BE", "fr-CA", "fr-CH", "fr-FR", "ga-IE", "gl-ES", "gu-IN", "ha-NG", "hi-IN", "hr-HR", "hu-HU", "hy-AM", "id-ID", "ig-NG", "is-IS", "it-CH", "it-IT", "iw-IL", "ja-JP", "jv-ID", "ka-GE", "kam-KE", "kea-CV", "kk-KZ", "km-KH", "kn-IN", "ko-KR", "ky-KG", "lb-LU", "lg-UG", "ln-CD", "lo-LA", "lt-LT", "luo-KE", "lv-LV", "mi-NZ", "mk-MK", "ml-IN", "mn-MN", "mr-IN", "ms-MY", "mt-MT", "my-MM", "ne-NP", "nl-BE", "nl-NL", "no-NO", "nso-ZA", "ny-MW", "oc-FR", "om-ET", "or-IN", "pa-Guru-IN", "pl-PL", "ps-AF", "pt-BR", "pt-PT", "ro-RO", "ru-RU", "rup-BG", "rw-RW", "sd-IN", "si-LK", "sk-SK", "sl-SI", "sn-ZW", "so-SO", "sq-AL", "sr-RS", "ss-Latn-ZA", "st-ZA", "su-ID", "sv-SE", "sw", "sw-KE", "ta-IN", "te-IN", "tg-TJ", "th-TH", "tn-Latn-ZA", "tr-TR", "ts-ZA", "uk-UA", "umb-AO", "ur-PK", "uz-UZ", "ve-ZA", "vi-VN", "wo-SN", "xh-ZA", "yo-NG", "yue-Hant-HK", "zu-ZA"), Map.of("allow_custom_input", true, "docs_url", "https://docs.cloud.google.com/speech-to-text/docs/speech-to-text-supported-languages")),
                f("location", Type.TEXT, false, false, "global", null, false, null, null, "Google Cloud Speech-to-Text region (for example 'global' or 'us-central1').",
                        null, null),
                f("credentials", Type.TEXT, false, true, null, null, false, null, null, "Paste the entire Google Cloud service-account JSON. If omitted, the server falls back to Application Default Credentials (ADC).",
                        null, Map.of("multiline", true)))));
        all.add(new ModelProvider(ModelService.STT, "dograh", "DograhSTTService", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "default", null, false, null, null, "Dograh STT tier.",
                        List.of("default"), null),
                f("language", Type.TEXT, false, false, "multi", null, false, null, null, "Language code; use 'multi' for auto-detect.",
                        List.of("multi", "ar", "ar-AE", "ar-SA", "ar-QA", "ar-KW", "ar-SY", "ar-LB", "ar-PS", "ar-JO", "ar-EG", "ar-SD", "ar-TD", "ar-MA", "ar-DZ", "ar-TN", "ar-IQ", "ar-IR", "be", "bn", "bs", "bg", "ca", "cs", "da", "da-DK", "de", "de-CH", "el", "en", "en-US", "en-AU", "en-GB", "en-IN", "en-NZ", "es", "es-419", "et", "fa", "fi", "fr", "fr-CA", "he", "hi", "hr", "hu", "id", "it", "ja", "kn", "ko", "ko-KR", "lt", "lv", "mk", "mr", "ms", "nl", "nl-BE", "no", "pl", "pt", "pt-BR", "pt-PT", "ro", "ru", "sk", "sl", "sr", "sv", "sv-SE", "ta", "te", "th", "tl", "tr", "uk", "ur", "vi", "zh-CN", "zh-TW"), null))));
        all.add(new ModelProvider(ModelService.STT, "speechmatics", "SpeechmaticsSTTConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "enhanced", null, false, null, null, "Speechmatics operating point: 'standard' or 'enhanced'.",
                        null, null),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "ISO 639-1 language code.",
                        List.of("ar", "ar_en", "ba", "eu", "be", "bn", "bg", "yue", "ca", "hr", "cs", "da", "nl", "en", "eo", "et", "fi", "fr", "gl", "de", "el", "he", "hi", "hu", "id", "ia", "ga", "it", "ja", "ko", "lv", "lt", "ms", "en_ms", "mt", "cmn", "cmn_en", "cmn_en_ms_ta", "mr", "mn", "no", "fa", "pl", "pt", "ro", "ru", "sk", "sl", "es", "sw", "sv", "tl", "ta", "en_ta", "th", "tr", "uk", "ur", "ug", "vi", "cy"), null))));
        all.add(new ModelProvider(ModelService.STT, "sarvam", "SarvamSTTConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "saarika:v2.5", null, false, null, null, "Sarvam STT model. saarika:v2.5 transcribes in the spoken language; saaras:v3 is the recommended model with flexible output modes.",
                        List.of("saarika:v2.5", "saaras:v3"), null),
                f("language", Type.TEXT, false, false, "unknown", null, false, null, null, "BCP-47 language code. Use unknown for automatic language detection.",
                        List.of("unknown", "hi-IN", "bn-IN", "gu-IN", "kn-IN", "ml-IN", "mr-IN", "od-IN", "pa-IN", "ta-IN", "te-IN", "en-IN"), Map.of("model_options", Map.of("saaras:v3", List.of("unknown", "hi-IN", "bn-IN", "gu-IN", "kn-IN", "ml-IN", "mr-IN", "od-IN", "pa-IN", "ta-IN", "te-IN", "en-IN", "as-IN", "ur-IN", "ne-IN", "kok-IN", "ks-IN", "sd-IN", "sa-IN", "sat-IN", "mni-IN", "brx-IN", "mai-IN", "doi-IN"), "saarika:v2.5", List.of("unknown", "hi-IN", "bn-IN", "gu-IN", "kn-IN", "ml-IN", "mr-IN", "od-IN", "pa-IN", "ta-IN", "te-IN", "en-IN")))))));
        all.add(new ModelProvider(ModelService.STT, "speaches", "SpeachesSTTConfiguration", "Self-hosted OpenAI-compatible local models. See the Speaches project for setup and supported backends.", List.of(
                f("api_key", Type.KEY, false, true, null, null, false, null, null, "Usually not required for self-hosted STT. Leave blank unless enforced.",
                        null, null),
                f("model", Type.TEXT, false, false, "Systran/faster-distil-whisper-small.en", null, false, null, null, "Whisper model identifier as served by your STT endpoint.",
                        List.of("Systran/faster-distil-whisper-small.en", "Systran/faster-whisper-large-v3"), Map.of("allow_custom_input", true)),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "ISO 639-1 language code.",
                        List.of("en", "ar", "nl", "fr", "de", "hi", "it", "pt", "es"), Map.of("allow_custom_input", true)),
                f("base_url", Type.TEXT, false, false, "http://localhost:8000/v1", null, false, null, null, "OpenAI-compatible STT endpoint (Speaches, etc.).",
                        null, null))));
        all.add(new ModelProvider(ModelService.STT, "huggingface", "HuggingFaceSTTConfiguration", "Hosted Hugging Face Inference Providers API for usage-based inference.", List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "openai/whisper-large-v3-turbo", null, false, null, null, "Hugging Face ASR model identifier served through Inference Providers.",
                        List.of("openai/whisper-large-v3-turbo", "openai/whisper-large-v3"), Map.of("allow_custom_input", true)),
                f("base_url", Type.TEXT, false, false, "https://router.huggingface.co/hf-inference", null, false, null, null, "Hugging Face Inference Providers router base URL.",
                        null, null),
                f("bill_to", Type.TEXT, false, true, null, null, false, null, null, "Optional Hugging Face organization or user to bill using X-HF-Bill-To.",
                        null, null),
                f("return_timestamps", Type.BOOLEAN, false, false, Boolean.FALSE, null, false, null, null, "Request timestamp chunks when supported by the selected provider/model.",
                        null, null))));
        all.add(new ModelProvider(ModelService.STT, "assemblyai", "AssemblyAISTTConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "u3-rt-pro", null, false, null, null, "AssemblyAI realtime STT model.",
                        List.of("u3-rt-pro"), null),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "ISO 639-1 language code.",
                        List.of("en", "es", "de", "fr", "pt", "it"), null))));
        all.add(new ModelProvider(ModelService.STT, "gladia", "GladiaSTTConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "solaria-1", null, false, null, null, "Gladia STT model.",
                        List.of("solaria-1"), null),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "ISO 639-1 language code.",
                        List.of("af", "am", "ar", "as", "az", "ba", "be", "bg", "bn", "bo", "br", "bs", "ca", "cs", "cy", "da", "de", "el", "en", "es", "et", "eu", "fa", "fi", "fo", "fr", "gl", "gu", "ha", "haw", "he", "hi", "hr", "ht", "hu", "hy", "id", "is", "it", "ja", "jw", "ka", "kk", "km", "kn", "ko", "la", "lb", "ln", "lo", "lt", "lv", "mg", "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "ne", "nl", "nn", "no", "oc", "pa", "pl", "ps", "pt", "ro", "ru", "sa", "sd", "si", "sk", "sl", "sn", "so", "sq", "sr", "su", "sv", "sw", "ta", "te", "tg", "th", "tk", "tl", "tr", "tt", "uk", "ur", "uz", "vi", "wo", "yi", "yo", "zh"), null))));
        all.add(new ModelProvider(ModelService.STT, "azure_speech", "AzureSpeechSTTConfiguration", "Azure Cognitive Services Speech — TTS and STT via the Azure Speech SDK.", List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "latest_long", null, false, null, null, "Azure Speech recognition model (use 'latest_long' for continuous recognition).",
                        List.of("latest_long", "latest_short"), null),
                f("region", Type.TEXT, false, false, "eastus", null, false, null, null, "Azure region for Speech Services (e.g. 'eastus', 'westeurope').",
                        List.of("eastus", "eastus2", "westus", "westus2", "westus3", "centralus", "northcentralus", "southcentralus", "westcentralus", "westeurope", "northeurope", "uksouth", "ukwest", "francecentral", "switzerlandnorth", "germanywestcentral", "norwayeast", "australiaeast", "eastasia", "southeastasia", "japaneast", "japanwest", "koreacentral", "centralindia", "southindia", "brazilsouth"), null),
                f("language", Type.TEXT, false, false, "en-US", null, false, null, null, "BCP-47 language code for recognition.",
                        List.of("en-US", "en-GB", "en-AU", "en-CA", "en-IN", "es-ES", "es-MX", "fr-FR", "fr-CA", "de-DE", "it-IT", "ja-JP", "ko-KR", "zh-CN", "pt-BR", "pt-PT", "ru-RU", "ar-SA", "nl-NL", "pl-PL", "hi-IN"), Map.of("allow_custom_input", true)))));
        all.add(new ModelProvider(ModelService.STT, "smallest", "SmallestAISTTConfiguration", "Smallest AI ultralow-latency TTS (Waves) and STT (Pulse) APIs.", List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "pulse", null, false, null, null, "Smallest AI STT model. Supports 38 languages with real-time streaming.",
                        List.of("pulse"), null),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "ISO 639-1 language code for transcription.",
                        List.of("en", "hi", "fr", "de", "es", "it", "nl", "pl", "ru", "pt", "bn", "gu", "kn", "ml", "mr", "ta", "te", "pa", "or", "bg", "cs", "da", "et", "fi", "hu", "lt", "lv", "mt", "ro", "sk", "sv", "uk"), Map.of("allow_custom_input", true)))));
        all.add(new ModelProvider(ModelService.STT, "elevenlabs", "ElevenlabsSTTConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "scribe_v2_realtime", null, false, null, null, "ElevenLabs realtime STT model.",
                        List.of("scribe_v2_realtime"), Map.of("allow_custom_input", true)),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "ISO 639-1 language code for transcription. Use 'auto' to let ElevenLabs detect the language.",
                        List.of("auto", "af", "am", "ar", "as", "az", "be", "bg", "bn", "bs", "ca", "ceb", "cs", "cy", "da", "de", "el", "en", "es", "et", "fa", "fi", "fil", "fr", "ga", "gl", "gu", "ha", "he", "hi", "hr", "hu", "hy", "id", "ig", "is", "it", "ja", "jv", "ka", "kk", "km", "kn", "ko", "ku", "ky", "lo", "lt", "lv", "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "ne", "nl", "no", "ny", "oc", "or", "pa", "pl", "ps", "pt", "ro", "ru", "sd", "sk", "sl", "sn", "so", "sr", "sv", "sw", "ta", "te", "tg", "th", "tr", "uk", "ur", "uz", "vi", "wo", "xh", "yue", "zh", "zu"), Map.of("allow_custom_input", true)),
                f("base_url", Type.TEXT, false, false, "https://api.elevenlabs.io", null, false, null, null, "ElevenLabs API base URL. Override to use a Data Residency endpoint (e.g. https://api.eu.residency.elevenlabs.io) for GDPR / HIPAA / regional compliance.",
                        null, null))));
        all.add(new ModelProvider(ModelService.EMBEDDINGS, "openai", "OpenAIEmbeddingsConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "text-embedding-3-small", null, false, null, null, "OpenAI embedding model.",
                        List.of("text-embedding-3-small"), null))));
        all.add(new ModelProvider(ModelService.EMBEDDINGS, "openrouter", "OpenRouterEmbeddingsConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "openai/text-embedding-3-small", null, false, null, null, "OpenRouter-hosted embedding model slug.",
                        List.of("openai/text-embedding-3-small"), null),
                f("base_url", Type.TEXT, false, false, "https://openrouter.ai/api/v1", null, false, null, null, "Override only if proxying OpenRouter through your own gateway.",
                        null, null))));
        all.add(new ModelProvider(ModelService.EMBEDDINGS, "azure", "AzureOpenAIEmbeddingsConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "text-embedding-3-small", null, false, null, null, "Azure OpenAI embedding deployment name. The deployment must return 1536-dimensional embeddings.",
                        List.of("text-embedding-3-small", "text-embedding-ada-002"), Map.of("allow_custom_input", true)),
                f("endpoint", Type.TEXT, true, false, null, null, false, null, null, "Azure OpenAI resource endpoint (e.g. https://<resource>.openai.azure.com).",
                        null, null),
                f("api_version", Type.TEXT, false, false, "2024-02-15-preview", null, false, null, null, "Azure OpenAI API version for embeddings.",
                        null, null))));
        all.add(new ModelProvider(ModelService.EMBEDDINGS, "dograh", "DograhEmbeddingsConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "dograh_embedding_v1", null, false, null, null, "Dograh-managed embedding model.",
                        List.of("dograh_embedding_v1"), null))));
        all.add(new ModelProvider(ModelService.REALTIME, "openai_realtime", "OpenAIRealtimeLLMConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "gpt-realtime-2", null, false, null, null, "OpenAI realtime (speech-to-speech) model.",
                        List.of("gpt-realtime-2"), Map.of("allow_custom_input", true)),
                f("voice", Type.TEXT, false, false, "alloy", null, false, null, null, "Voice the model speaks in.",
                        List.of("alloy", "ash", "ballad", "coral", "echo", "sage", "shimmer", "verse"), Map.of("allow_custom_input", true)),
                f("language", Type.TEXT, false, true, null, null, false, null, null, "ISO 639-1 language code for input audio transcription (e.g. 'pt', 'es'). Improves transcription accuracy and latency. Leave unset to auto-detect.",
                        List.of("en", "es", "pt", "fr", "de", "it", "hi", "ja", "ko", "zh"), Map.of("allow_custom_input", true)))));
        all.add(new ModelProvider(ModelService.REALTIME, "grok_realtime", "GrokRealtimeLLMConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "grok-voice-think-fast-1.0", null, false, null, null, "Grok realtime voice-agent model.",
                        List.of("grok-voice-think-fast-1.0"), Map.of("allow_custom_input", true)),
                f("voice", Type.TEXT, false, false, "ara", null, false, null, null, "Voice the model speaks in.",
                        List.of("ara", "rex", "sal", "eve", "leo"), Map.of("allow_custom_input", true)))));
        all.add(new ModelProvider(ModelService.REALTIME, "ultravox_realtime", "UltravoxRealtimeLLMConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "ultravox-v0.7", null, false, null, null, "Ultravox realtime voice-agent model.",
                        List.of("ultravox-v0.7", "fixie-ai/ultravox"), Map.of("allow_custom_input", true)),
                f("voice", Type.TEXT, false, false, "Mark", null, false, null, null, "Ultravox voice name or voice ID.",
                        null, null))));
        all.add(new ModelProvider(ModelService.REALTIME, "google_realtime", "GoogleRealtimeLLMConfiguration", null, List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "gemini-3.1-flash-live-preview", null, false, null, null, "Gemini Live model on Google AI Studio (not Vertex).",
                        List.of("gemini-3.1-flash-live-preview"), Map.of("allow_custom_input", true)),
                f("voice", Type.TEXT, false, false, "Puck", null, false, null, null, "Voice the model speaks in.",
                        List.of("Puck", "Charon", "Kore", "Fenrir", "Aoede"), Map.of("allow_custom_input", true)),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "ISO 639-1 language code.",
                        List.of("ar", "bn", "de", "en", "es", "fr", "gu", "hi", "id", "it", "ja", "kn", "ko", "ml", "mr", "nl", "pl", "pt", "ru", "ta", "te", "th", "tr", "vi", "zh"), Map.of("allow_custom_input", true)),
                f("temperature", Type.NUMBER, false, true, null, 0.0, false, 2.0, null, "Sampling temperature for Gemini Live (0.0 to 2.0).",
                        null, null))));
        all.add(new ModelProvider(ModelService.REALTIME, "google_vertex_realtime", "GoogleVertexRealtimeLLMConfiguration", null, List.of(
                f("api_key", Type.KEY, false, true, null, null, false, null, null, "Not used for Vertex AI — authentication is via the service account in `credentials` (or ADC). Leave blank.",
                        null, null),
                f("model", Type.TEXT, false, false, "google/gemini-live-2.5-flash-native-audio", null, false, null, null, "Vertex AI publisher/model identifier.",
                        List.of("google/gemini-live-2.5-flash-native-audio"), Map.of("allow_custom_input", true)),
                f("voice", Type.TEXT, false, false, "Charon", null, false, null, null, "Voice the model speaks in.",
                        List.of("Puck", "Charon", "Kore", "Fenrir", "Aoede"), Map.of("allow_custom_input", true)),
                f("language", Type.TEXT, false, false, "en", null, false, null, null, "BCP-47 language code (e.g. 'en-US').",
                        List.of("ar", "bn", "de", "en", "es", "fr", "gu", "hi", "id", "it", "ja", "kn", "ko", "ml", "mr", "nl", "pl", "pt", "ru", "ta", "te", "th", "tr", "vi", "zh"), Map.of("allow_custom_input", true)),
                f("temperature", Type.NUMBER, false, true, null, 0.0, false, 2.0, null, "Sampling temperature for Gemini Live (0.0 to 2.0).",
                        null, null),
                f("project_id", Type.TEXT, true, false, null, null, false, null, null, "Google Cloud project ID for Vertex AI.",
                        null, null),
                f("location", Type.TEXT, false, false, "global", null, false, null, null, "GCP region for the Vertex AI endpoint (e.g. 'global').",
                        null, null),
                f("credentials", Type.TEXT, false, true, null, null, false, null, null, "Paste the entire service-account JSON file contents. If omitted, falls back to Application Default Credentials (ADC).",
                        null, Map.of("multiline", true)))));
        all.add(new ModelProvider(ModelService.REALTIME, "azure_realtime", "AzureRealtimeLLMConfiguration", "Azure OpenAI Realtime API — low-latency speech-to-speech conversations.", List.of(
                f("api_key", Type.KEY, true, false, null, null, false, null, null, null,
                        null, null),
                f("model", Type.TEXT, false, false, "gpt-realtime", null, false, null, null, "Azure OpenAI realtime deployment name.",
                        List.of("gpt-realtime", "gpt-realtime-1.5", "gpt-realtime-mini"), Map.of("allow_custom_input", true)),
                f("endpoint", Type.TEXT, true, false, null, null, false, null, null, "Azure OpenAI resource endpoint (e.g. https://<resource>.openai.azure.com).",
                        null, null),
                f("voice", Type.TEXT, false, false, "alloy", null, false, null, null, "Voice the model speaks in.",
                        List.of("alloy", "ash", "ballad", "coral", "echo", "sage", "shimmer", "verse"), Map.of("allow_custom_input", true)),
                f("api_version", Type.TEXT, false, false, "v1", null, false, null, null, "Azure OpenAI Realtime protocol version. Use 'v1' for the GA API; date-based versions select the deprecated preview endpoint.",
                        List.of("v1", "2025-04-01-preview", "2024-10-01-preview", "2024-12-17"), null))));
        all.addAll(BUILT_IN);
        return List.copyOf(all);
    }
}
