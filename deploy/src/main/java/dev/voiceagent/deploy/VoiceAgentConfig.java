package dev.voiceagent.deploy;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The settings the composition root reads, one group per concern, each default written here once (the README's
 * configuration tables list them with their environment variables: {@code voiceagent.calls.stale-after} is
 * {@code VOICEAGENT_CALLS_STALE_AFTER}). Producers read groups from it and hand plain values to the application's
 * services, which know nothing of configuration. Adapters read their own few settings beside their code.
 */
@ConfigMapping(prefix = "voiceagent")
public interface VoiceAgentConfig {

    Auth auth();

    Calls calls();

    Campaigns campaigns();

    Dispatch dispatch();

    @WithName("calling-hours")
    CallingHoursConfig callingHours();

    Drain drain();

    @WithName("warm-up")
    WarmUpConfig warmUp();

    Runs runs();

    @WithName("public-links")
    PublicLinks publicLinks();

    Storage storage();

    Knowledge knowledge();

    Docs docs();

    Models models();

    @WithName("managed-models")
    ManagedModelsConfig managedModels();

    Telephony telephony();

    @WithName("rate-limit")
    RateLimit rateLimit();

    Credits credits();

    Usage usage();

    Billing billing();

    /** Migrate the schema, then exit (the migration Job's mode). */
    @WithName("migrate-only")
    @WithDefault("false")
    boolean migrateOnly();

    interface Auth {
        /** The HS256 signing secret; when unset, one generated once and kept in the database. */
        @WithName("jwt-secret")
        Optional<String> jwtSecret();

        @WithName("token-lifetime")
        @WithDefault("PT720H")
        Duration tokenLifetime();

        @WithName("signup-enabled")
        @WithDefault("true")
        boolean signupEnabled();

        @WithName("bcrypt-cost")
        @WithDefault("12")
        int bcryptCost();
    }

    interface Calls {
        /** Concurrent calls of an organization that has no limit of its own. */
        @WithName("default-org-limit")
        @WithDefault("10")
        int defaultOrgLimit();

        /** A call still active after this is not counted against the limits (its report was lost). */
        @WithName("stale-after")
        @WithDefault("PT2H")
        Duration staleAfter();
    }

    interface Campaigns {
        @WithName("max-source-bytes")
        @WithDefault("10485760")
        long maxSourceBytes();
    }

    interface Dispatch {
        /** How long a dial's attempt is held before reconciliation asks the provider. */
        @WithDefault("PT2M")
        Duration lease();

        @WithName("import-lease")
        @WithDefault("PT1M")
        Duration importLease();
    }

    interface CallingHoursConfig {
        /** The installation's legal calling hours, HH:MM-HH:MM in each callee's time zone. */
        @WithName("default")
        @WithDefault("08:00-21:00")
        String window();
    }

    interface Drain {
        @WithDefault("PT10M")
        Duration max();

        @WithDefault("PT0.5S")
        Duration poll();
    }

    /** The replica's warm-up before it reports ready ({@code WarmUp}). */
    interface WarmUpConfig {
        /** false: ready at once (the tests' profile: their calls come when they come). */
        @WithDefault("true")
        boolean enabled();

        /** Ready once this passed even if the warm-up is not done (it stops there). */
        @WithDefault("PT60S")
        Duration budget();

        /** Seconds of each call's audio work run through (voice activity, carriers' frames, WebRTC's codec). */
        @WithDefault("40")
        int seconds();

        /** DTLS-SRTP handshakes run in memory. */
        @WithDefault("12")
        int handshakes();

        /**
         * Whole phone calls rehearsed at once against the providers' stand-ins ({@code RehearsedCalls}), with
         * {@link #browserCalls()} browser calls; 0 and 0: none.
         */
        @WithDefault("16")
        int calls();

        /** Whole browser calls (16 kHz) rehearsed alongside the phone calls. */
        @WithDefault("8")
        @WithName("browser-calls")
        int browserCalls();
    }

    interface Runs {
        /** A browser run whose media never connected is closed as abandoned after this. */
        @WithName("abandon-after")
        @WithDefault("PT5M")
        Duration abandonAfter();

        /** A QA review asks a transiently failing model again after this, then after twice as long. */
        @WithName("qa-retry-pause")
        @WithDefault("PT2S")
        Duration qaRetryPause();
    }

    interface PublicLinks {
        @WithDefault("P7D")
        Duration ttl();

        /** Their base where no request tells it (webhooks): the public base URL, else this service on localhost. */
        @WithName("base-url")
        String baseUrl();
    }

    interface Storage {
        /** local (this service signs and serves the URLs) or s3. */
        @WithDefault("local")
        String backend();

        S3 s3();

        interface S3 {
            Optional<URI> endpoint();

            @WithDefault("us-east-1")
            String region();

            Optional<String> bucket();

            @WithName("access-key")
            Optional<String> accessKey();

            @WithName("secret-key")
            Optional<String> secretKey();
        }
    }

    interface Knowledge {
        @WithName("max-upload-bytes")
        @WithDefault("104857600")
        long maxUploadBytes();

        /** How long a replica holds a document it processes. */
        @WithDefault("PT5M")
        Duration lease();
    }

    interface Docs {
        /** The documentation assistant indexes the docs this long after start, off the start-up path. */
        @WithName("index-delay")
        @WithDefault("PT20S")
        Duration indexDelay();
    }

    interface Models {
        /** The chat model used when an organization has none configured (e.g. simulator). */
        @WithName("fallback-llm")
        Optional<String> fallbackLlm();
    }

    interface ManagedModelsConfig {
        @WithName("base-url")
        Optional<String> baseUrl();

        @WithName("api-key")
        Optional<String> apiKey();

        @WithName("llm-model")
        @WithDefault("gpt-4.1-mini")
        String llmModel();

        @WithName("tts-model")
        @WithDefault("gpt-4o-mini-tts")
        String ttsModel();

        @WithName("tts-voice")
        @WithDefault("alloy")
        String ttsVoice();

        @WithName("stt-model")
        @WithDefault("gpt-4o-mini-transcribe")
        String sttModel();

        @WithName("embeddings-model")
        @WithDefault("text-embedding-3-small")
        String embeddingsModel();
    }

    interface Telephony {
        /** AES-256 key (base64 of 32 bytes) sealing provider credentials; when unset, one kept in the database. */
        @WithName("credentials-key")
        Optional<String> credentialsKey();
    }

    interface RateLimit {
        @WithDefault("true")
        boolean enabled();

        @WithName("per-second")
        @WithDefault("20")
        double perSecond();

        @WithDefault("40")
        int burst();
    }

    interface Credits {
        /** Refuse calls and chats when the organization's balance is exhausted. */
        @WithDefault("false")
        boolean enforce();

        @WithName("initial-grant")
        @WithDefault("0")
        long initialGrant();
    }

    interface Usage {
        @WithName("price-per-second")
        Optional<String> pricePerSecond();
    }

    interface Billing {
        Stripe stripe();

        /** Plan name -> Stripe price id ({@code voiceagent.billing.plans.pro=price_...}). */
        Map<String, String> plans();

        @WithName("default-plan")
        Optional<String> defaultPlan();

        BillingCredits credits();

        @WithName("success-url")
        String successUrl();

        @WithName("cancel-url")
        String cancelUrl();

        @WithName("return-url")
        String returnUrl();

        interface Stripe {
            @WithName("secret-key")
            Optional<String> secretKey();

            @WithName("webhook-secret")
            Optional<String> webhookSecret();

            @WithName("api-base")
            @WithDefault("https://api.stripe.com")
            URI apiBase();

            @WithDefault("PT10S")
            Duration timeout();
        }

        interface BillingCredits {
            @WithName("default")
            @WithDefault("1000")
            long defaultAmount();

            @WithDefault("50")
            long min();

            @WithDefault("1000000")
            long max();
        }
    }
}
