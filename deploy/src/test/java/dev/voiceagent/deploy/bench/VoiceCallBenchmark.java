package dev.voiceagent.deploy.bench;

import dev.voiceagent.adapters.media.webrtc.WebRtcCaller;
import dev.voiceagent.adapters.telephony.FormBody;
import dev.voiceagent.application.voice.runtime.VoiceSessionFactory;
import dev.voiceagent.deploy.support.BrowserCaller;
import dev.voiceagent.deploy.support.FakeAsterisk;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.ChatFault;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Faults;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Injected;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.HeardLines;
import dev.voiceagent.deploy.support.ScriptedCaller;
import dev.voiceagent.adapters.telephony.plivo.PlivoSignature;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.deploy.support.Speech;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Concurrent phone calls against the packaged service (its own process, a fresh PostgreSQL), with local fakes of
 * Twilio's REST API, Deepgram, the language model and ElevenLabs (or Cartesia: -Dbench.tts=cartesia) at fixed delays (speech-to-text final 150 ms after
 * Finalize, first model token 250 ms, first speech audio 100 ms), and simulated Twilio callers in this process. Each
 * call: the greeting, three questions, then a long answer the caller cuts into, a last answer, and the caller hangs up.
 *
 * <p>Reported per level of concurrency (-Dbench.calls=1,10,40,100):
 * <ul>
 * <li>overhead: voice-to-voice (the caller's last speech frame to the first agent frame it receives) minus what the
 * turn waits for by design (voice activity's silence, {@code VoiceSessionFactory.ACTIVITY}: 256 ms) minus the fakes' delays (150 + 250 + 20 for the first
 * sentence's end + 100 ms), p50 and p99 over every answered question;</li>
 * <li>barge-in: the caller's first speech frame to the clear it receives, p50 and p99;</li>
 * <li>underruns: agent frames that came after the caller's playback ran dry mid-sentence (a glitch the caller
 * hears), and apart from them the sentences whose audio came after the previous one had played (a pause between
 * sentences: the model wrote the next one after the last was spoken);</li>
 * <li>where each answer's overhead went: the caller's last speech frame to voice activity's stop beyond its silence,
 * the service's part after the stop, the first frame's way out to the caller, each also by answer (the first, second
 * and third: a cold replica's tail is its first answers) ({@link #whereItWent});</li>
 * <li>how late the fakes' designed delays fired (the harness's own lag, which the overhead includes);</li>
 * <li>the application's CPU per call-second (from /proc), and the calls that did not end as scripted.</li>
 * </ul>
 * With -Dbench.faults=true each call's providers fail about once, at points a seeded Random draws
 * (-Dbench.seed): Deepgram's socket dropped in the middle of the caller's second or third line (its reconnection
 * refused once with 503 half the time), the model's answer to the second or third line refused with 500, with 429
 * and Retry-After: 1, or its stream broken after a few words, ElevenLabs' socket dropped right after the first audio
 * of one of the first three answers' sentences (its reconnection refused once half the time). Each call then has keys
 * of its own (its workflow's model_overrides), so the fakes tell the calls apart, and the recognizer hears the lines
 * from the audio it was sent. Reported besides: the calls that ended as scripted, the faults injected by provider,
 * the extra delay of the answers a fault came before (their voice-to-voice minus the unaffected answers' p50), usage
 * against what the fakes served (characters of sentences sent whole, tokens of finished answers, the caller's audio)
 * and whether each run's transcript has every line once. -Dbench.faults=false runs the same calls and report without
 * faults; -Dbench.pause sets the caller's pause between lines (2200 ms; 3000 leaves a late answer time to be heard).
 * The callers and fakes share the 2-core machine with the service and PostgreSQL; figures are for that box.
 */
public final class VoiceCallBenchmark {

    private static final Pattern STREAM = Pattern.compile("<Stream url=\"([^\"]+)\"");
    /** What the turn waits for by design, and the fakes' delays (the first sentence ends with the second chunk). */
    static final long DESIGNED_MS = VoiceSessionFactory.ACTIVITY.stop().toMillis()
            + 150 + 250 + 20 + 100;

    private static final String WORKFLOW = """
            {"name": "Bench voice", "workflow_definition": {"nodes": [
              {"id": "start", "type": "startCall", "position": {"x": 0, "y": 0}, "data": {"name": "Start",
               "prompt": "Help callers.", "greeting": "Hello, this is Acme. How can I help?", "greeting_type": "text",
               "allow_interrupt": true}},
              {"id": "end", "type": "endCall", "position": {"x": 0, "y": 200}, "data": {"name": "End",
               "prompt": "Say goodbye."}}],
             "edges": [{"id": "e1", "source": "start", "target": "end", "data": {"label": "Done",
               "condition": "The caller is done"}}]}}""";

    /**
     * The voice spoken with: -Dbench.tts=elevenlabs (the default), cartesia or rime, each against its fake; or realtime
     * (OpenAI's), grok_realtime or azure_realtime: the calls run on that speech-to-speech model (support/
     * FakeRealtimeModel in its dialect) instead of the pipeline.
     */
    static String voice() {
        return switch (System.getProperty("bench.tts", "elevenlabs")) {
            case "elevenlabs" -> "{\"provider\": \"elevenlabs\", \"api_key\": \"el-bench\", \"voice\": \"v1\"}";
            case "cartesia" -> "{\"provider\": \"cartesia\", \"api_key\": \"ca-bench\", \"voice\": \"v1\"}";
            case "rime" -> "{\"provider\": \"rime\", \"api_key\": \"rime-bench\", \"voice\": \"celeste\"}";
            case "realtime", "grok_realtime", "azure_realtime" -> null;
            default -> throw new IllegalArgumentException("bench.tts: elevenlabs, cartesia, rime, realtime,"
                    + " grok_realtime or azure_realtime");
        };
    }

    /** The speech-to-speech model of a realtime run (bench.tts). */
    static String realtimeModel(String fakes) {
        return switch (System.getProperty("bench.tts", "elevenlabs")) {
            case "grok_realtime" -> "{\"provider\": \"grok_realtime\", \"api_key\": \"xai-bench\","
                    + " \"model\": \"grok-voice-think-fast-1.0\"}";
            case "azure_realtime" -> ("{\"provider\": \"azure_realtime\", \"api_key\": \"az-bench\","
                    + " \"model\": \"bench-realtime\", \"endpoint\": \"%s\"}").formatted(fakes);
            default -> "{\"provider\": \"openai_realtime\", \"api_key\": \"sk-bench\", \"model\": \"gpt-realtime-2\"}";
        };
    }

    /** The ear of a pipeline run: -Dbench.stt=deepgram (the default) or assemblyai, each against its fake. */
    static String ear() {
        String stt = System.getProperty("bench.stt", "");
        return switch (stt.isBlank() ? "deepgram" : stt.strip()) { // the pom passes it empty when unset
            case "deepgram" -> "{\"provider\": \"deepgram\", \"api_key\": \"dg-bench\", \"model\": \"nova-3-general\"}";
            case "assemblyai" -> "{\"provider\": \"assemblyai\", \"api_key\": \"aa-bench\", \"model\": \"u3-rt-pro\"}";
            default -> throw new IllegalArgumentException("bench.stt: deepgram or assemblyai");
        };
    }

    /**
     * phone (Twilio Media Streams, μ-law 8 kHz), browser (the plain WebSocket voice route, PCM 16 kHz) or webrtc (the
     * dashboard's signaling, Opus over DTLS-SRTP: {@link WebRtcCaller}).
     */
    static String transport() {
        String transport = System.getProperty("bench.transport", "");
        transport = transport.isBlank() ? "phone" : transport.strip(); // the pom passes it empty when unset
        if (!List.of("phone", "browser", "webrtc").contains(transport)) {
            throw new IllegalArgumentException("bench.transport: phone, browser or webrtc");
        }
        return transport;
    }

    static boolean browser() {
        return !"phone".equals(transport());
    }

    /** On the phone, the carrier whose API dials and whose media dialect the callers speak (bench.carrier). */
    static String carrier() {
        String carrier = System.getProperty("bench.carrier", "");
        carrier = carrier.isBlank() ? "twilio" : carrier.strip();
        if (!List.of("twilio", "telnyx", "plivo", "vobiz", "vonage", "cloudonix", "asterisk").contains(carrier)) {
            throw new IllegalArgumentException("bench.carrier: twilio, telnyx, plivo, vobiz, vonage, cloudonix or"
                    + " asterisk");
        }
        return carrier;
    }

    private static final String CARRIER_TOKEN = "bench-token";

    /** On Asterisk: the stand-in PBX whose ARI the service holds the events of and dials through. */
    private static FakeAsterisk pbx;

    private static java.security.KeyPair vonageKeys() {
        try {
            return java.security.KeyPairGenerator.getInstance("RSA").generateKeyPair();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An Ed25519 public key, raw and base64 as Telnyx's portal shows it (the benchmark sends no event to verify). */
    private static String telnyxPublicKey() {
        try {
            byte[] encoded = java.security.KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic()
                    .getEncoded();
            return java.util.Base64.getEncoder().encodeToString(java.util.Arrays.copyOfRange(encoded,
                    encoded.length - 32, encoded.length));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The telephony configuration of {@link #carrier()}. */
    private static String carrierConfiguration() {
        return switch (carrier()) {
            case "telnyx" -> "{\"name\":\"Telnyx\",\"config\":{\"provider\":\"telnyx\",\"api_key\":\"KEYbench\","
                    + "\"connection_id\":\"conn-bench\",\"webhook_public_key\":\"" + telnyxPublicKey() + "\"}}";
            case "cloudonix" -> {
                FakeProviderServer.cloudonixDomain = "bench.cloudonix.net";
                FakeProviderServer.cloudonixKey = "XIbench";
                yield "{\"name\":\"Cloudonix\",\"config\":{\"provider\":\"cloudonix\",\"bearer_token\":\"XIbench\","
                        + "\"domain_id\":\"bench.cloudonix.net\"}}";
            }
            case "vonage" -> {
                java.security.KeyPair pair = vonageKeys();
                FakeProviderServer.vonageKey = pair.getPublic();
                FakeProviderServer.vonageApplication = "bench-application";
                String pem = "-----BEGIN PRIVATE KEY-----\\n" + java.util.Base64.getEncoder().encodeToString(
                        pair.getPrivate().getEncoded()) + "\\n-----END PRIVATE KEY-----\\n";
                yield "{\"name\":\"Vonage\",\"config\":{\"provider\":\"vonage\",\"api_key\":\"bench-key\","
                        + "\"api_secret\":\"bench-secret\",\"application_id\":\"bench-application\",\"private_key\":\""
                        + pem + "\",\"signature_secret\":\"" + CARRIER_TOKEN + "\"}}";
            }
            case "asterisk" -> "{\"name\":\"Asterisk\",\"config\":{\"provider\":\"ari\",\"ari_endpoint\":\""
                    + pbx.endpoint() + "\",\"app_name\":\"bench\",\"app_password\":\"" + CARRIER_TOKEN
                    + "\",\"ws_client_name\":\"voiceagent\"}}";
            case "plivo", "vobiz" -> "{\"name\":\"" + carrier() + "\",\"config\":{\"provider\":\"" + carrier()
                    + "\",\"auth_id\":\"MABENCH\",\"auth_token\":\"" + CARRIER_TOKEN + "\"}}";
            default -> "{\"name\":\"Twilio\",\"config\":{\"provider\":\"twilio\",\"account_sid\":\"AC"
                    + "0123456789abcdef".repeat(2) + "\",\"auth_token\":\"" + CARRIER_TOKEN + "\"}}";
        };
    }

    private static final Pattern PLIVO_STREAM = Pattern.compile("<Stream[^>]*>([^<]+)</Stream>");

    /**
     * The media address of the call just dialled, as its carrier learns it: Twilio's TwiML and Telnyx's stream_url
     * in the dial itself; Plivo's and Vobiz's in the XML of the answer webhook, posted signed as the carrier does.
     */
    private static String mediaAddress(BenchApp app, long run) throws Exception {
        if ("asterisk".equals(carrier())) { // answered: its externalMedia channel's websocket client connects
            FakeAsterisk.Request originate = pbx.requests.reversed().stream().filter(r -> r.method().equals("POST")
                    && r.path().equals("/ari/channels")).findFirst().orElseThrow();
            pbx.answer(originate.query().get("channelId"));
            Map<String, String> media = pbx.mediaChannels.poll(10, TimeUnit.SECONDS);
            if (media == null) {
                throw new IllegalStateException("no externalMedia channel for run " + run);
            }
            return app.base.replace("http://localhost", "ws://127.0.0.1") + "/api/v1/telephony/ws/ari?workflow_id="
                    + media.get("workflow_id") + "&organization_id=" + media.get("organization_id")
                    + "&workflow_run_id=" + media.get("workflow_run_id") + "&token=" + media.get("token");
        }
        FakeProviderServer.Received dial = FakeProviderServer.REQUESTS.getLast();
        String found = switch (carrier()) {
            case "telnyx" -> new JsonObject(dial.body()).getString("stream_url");
            case "cloudonix" -> {
                Matcher m = STREAM.matcher(new JsonObject(dial.body()).getString("cxml"));
                yield m.find() ? m.group(1) : null;
            }
            case "vonage" -> new JsonObject(dial.body()).getJsonArray("ncco").getJsonObject(0).getJsonArray("endpoint")
                    .getJsonObject(0).getString("uri");
            case "plivo", "vobiz" -> {
                String answer = new JsonObject(dial.body()).getString("answer_url");
                Map<String, List<String>> params = Map.of("CallUUID", List.of("bench-call-" + run), "RequestUUID",
                        List.of(FakeProviderServer.lastSid), "CallStatus", List.of("in-progress"));
                String nonce = "nonce" + run;
                Map<String, String> headers = "plivo".equals(carrier())
                        ? Map.of("X-Plivo-Signature-V3", PlivoSignature.plivo(CARRIER_TOKEN, answer, params, nonce),
                                "X-Plivo-Signature-V3-Nonce", nonce)
                        : Map.of("X-Vobiz-Signature-V3", PlivoSignature.vobiz(CARRIER_TOKEN, answer, nonce, true),
                                "X-Vobiz-Signature-V3-Nonce", nonce);
                String xml = app.postForm(answer.substring(answer.indexOf("/api/v1/")), "CallUUID=bench-call-" + run
                        + "&RequestUUID=" + FakeProviderServer.lastSid + "&CallStatus=in-progress", headers);
                Matcher m = PLIVO_STREAM.matcher(xml);
                yield m.find() ? m.group(1).strip() : null;
            }
            default -> {
                Matcher m = STREAM.matcher(FormBody.first(FormBody.parse(dial.body()), "Twiml"));
                yield m.find() ? m.group(1) : null;
            }
        };
        if (found == null) {
            throw new IllegalStateException("no stream address for " + carrier() + " in " + dial.body());
        }
        return found.replace("localhost", "127.0.0.1");
    }

    private static SimulatedCaller.Carrier callerCarrier() {
        return switch (carrier()) {
            case "telnyx" -> SimulatedCaller.Carrier.TELNYX;
            case "plivo", "vobiz" -> SimulatedCaller.Carrier.PLIVO;
            case "vonage" -> SimulatedCaller.Carrier.VONAGE;
            case "cloudonix" -> SimulatedCaller.Carrier.CLOUDONIX;
            case "asterisk" -> SimulatedCaller.Carrier.ASTERISK;
            default -> SimulatedCaller.Carrier.TWILIO;
        };
    }

    static boolean realtime() {
        return voice() == null;
    }

    /**
     * What an answer waits for by design: the pipeline's (above), or on the speech-to-speech model its voice activity's
     * silence (500 ms, the session's silence_duration_ms) and the fake's first audio (250 ms).
     */
    static long designedMs() {
        return realtime() ? 500 + 250 : DESIGNED_MS;
    }

    /** true: faults injected; false: the same calls and report without them; null (unset): the plain benchmark. */
    static String faults() {
        String faults = System.getProperty("bench.faults", "");
        return faults.isBlank() ? null : faults.strip();
    }

    static boolean injecting() {
        return "true".equals(faults());
    }

    /** How many times each level runs on the same replica (-Dbench.voice-rounds, 2: cold, then warm). */
    static int rounds() {
        String rounds = System.getProperty("bench.voice-rounds", "");
        return rounds.isBlank() ? 2 : Integer.parseInt(rounds.strip());
    }

    /** The fakes' script: what the callers say and what the model answers to each line. */
    private static void script() {
        FakeVoiceProviders.callerScript = LINES;
        FakeVoiceProviders.REPLY_FOR.putAll(REPLIES);
        if (faults() != null) { // the recognizer hears each call's own lines, whatever socket they reach
            FakeVoiceProviders.hearing = new HeardLines(LINES);
        }
    }

    /**
     * Whether the harness warms itself on a throwaway replica before the measured one starts
     * (-Dbench.harness-warm-up, true when the replica's cold round is measured: -Dbench.voice-rounds above 1).
     */
    static boolean harnessWarmUp() {
        String asked = System.getProperty("bench.harness-warm-up", "");
        return asked.isBlank() ? rounds() > 1 : Boolean.parseBoolean(asked.strip());
    }

    /** The caller's pause between its lines (ms). */
    static int pause() {
        String pause = System.getProperty("bench.pause", "");
        return pause.isBlank() ? 2_200 : Integer.parseInt(pause.strip());
    }

    private static final List<String> LINES = List.of("Where is my order?", "When will it arrive?",
            "Can I change it?", "Tell me about returns.", "Stop right there.");
    private static final String GREETING = "Hello, this is Acme. How can I help?";
    private static final Map<String, Reply> REPLIES = Map.of(
            "Where is my order?", Reply.says("Sure. Your order left our warehouse this morning."),
            "When will it arrive?", Reply.says("Soon. It should arrive on Thursday afternoon."),
            "Can I change it?", Reply.says("Yes. You can change the address until it ships."),
            // spoken as it is written, about 2.2 s of the voice from about 0.8 s after the line: the caller's next line,
            // 2 s after this one, cuts into audio that is playing (a barge-in a WebRTC caller can time by the audio
            // stopping, and a clear that has something to clear)
            "Tell me about returns.", Reply.says("Okay. Returns are free within thirty days and we refund you"
                    + " in full once the parcel reaches our warehouse in good condition and we checked it. You can"
                    + " print the return label from your account."),
            "Stop right there.", Reply.says("Alright. Anything else?"));

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Exception | Error e) {
            // a replica that would not start (bad JVM options, say) or a failed level: exit, rather than wait on
            // the fakes' and the callers' non-daemon threads forever (with the Maven lock held)
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "deploy/target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        List<Integer> levels = new ArrayList<>();
        String levelsAsked = System.getProperty("bench.calls", ""); // the pom passes it empty when unset
        for (String n : (levelsAsked.isBlank() ? "1,10,40,100" : levelsAsked).split(",")) {
            levels.add(Integer.parseInt(n.strip()));
        }
        FakeProviderServer twilio = new FakeProviderServer();
        FakeVoiceProviders voices = new FakeVoiceProviders();
        fakes = voices;
        Map<String, String> env = new HashMap<>();
        twilio.start().forEach((k, v) -> env.put(variable(k), v));
        voices.start().forEach((k, v) -> env.put(variable(k), v));
        script();
        List<String> report = new ArrayList<>();
        String traceTo = tracing(env);
        Path store = Files.createTempDirectory("bench-voice-objects");
        objects = store;
        env.put("VOICEAGENT_STORAGE_LOCAL_ROOT", store.toString());
        env.put("VOICEAGENT_DRAIN_MAX", "PT2S"); // the fake Twilio reports no call's end: do not wait for them
        env.put("QUARKUS_LOG_LEVEL", "ERROR");
        if ("azure_realtime".equals(System.getProperty("bench.tts"))) {
            env.put("VOICEAGENT_OUTBOUND_ALLOWED", "127.0.0.1"); // the Azure resource is a tenant's address
        }
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
        if ("asterisk".equals(carrier()) && !browser()) {
            pbx = new FakeAsterisk(vertx, "bench", CARRIER_TOKEN, "voiceagent");
            env.put("VOICEAGENT_OUTBOUND_ALLOWED", "127.0.0.1"); // the PBX is a tenant's address, here a local one
            env.put("VOICEAGENT_ARI_EVENTS_INTERVAL", "PT1S");
        }
        List<String> jvm = new ArrayList<>();
        for (String option : System.getProperty("bench.jvm-options", "").strip().split("\\s+")) {
            if (!option.isBlank()) { // as Dockerfile.jvm starts the service (the pom's image.jvm-options)
                jvm.add(option);
            }
        }
        String aot = System.getProperty("bench.aot", "");
        if (!aot.isBlank()) { // the JDK AOT cache the integration tests recorded (Dockerfile.jvm's way to start)
            jvm.add("-XX:AOTCache=" + Path.of(aot.strip()).toAbsolutePath());
        }
        if (harnessWarmUp()) {
            // the harness's own callers and fakes (this process) run the first level once against a throwaway
            // replica, so that the measured replica's cold figures are its own and not a cold harness's
            try (BenchApp app = new BenchApp(jar, env, jvm.toArray(String[]::new))) {
                app.waitUntilReady(java.time.Duration.ofSeconds(120));
                level(app, vertx, setUp(app, traceTo, pbx), levels.getFirst());
            }
            FakeVoiceProviders.reset();
            script();
        }
        long launched = System.currentTimeMillis();
        try (BenchApp app = new BenchApp(jar, env, jvm.toArray(String[]::new))) {
            String ready = app.waitUntilReady(java.time.Duration.ofSeconds(120));
            long readyMs = System.currentTimeMillis() - launched;
            Matcher warmUp = Pattern.compile("\"total_ms\"\\s*:\\s*\"?(\\d+)").matcher(ready);
            long workflow = setUp(app, traceTo, pbx);
            report.add("Voice calls (" + switch (transport()) {
                        case "browser" -> "browser, PCM 16 kHz over the plain WebSocket";
                        case "webrtc" -> "browser over WebRTC, Opus over DTLS-SRTP, the dashboard's signaling";
                        default -> "phone, " + carrier() + "'s media dialect";
                    }
                    + "; voice " + System.getProperty("bench.tts", "elevenlabs")
                    + (realtime() ? "" : ", ear " + new io.vertx.core.json.JsonObject(ear()).getString("provider"))
                    + "): fakes at fixed delays"
                    + " (STT final 150 ms, first token 250 ms, first audio 100 ms);"
                    + (realtime() ? " (speech-to-speech: silence 500 ms, first audio 250 ms)" : "")
                    + " overhead = voice-to-voice - " + designedMs() + " ms designed; pauses between lines "
                    + pause() + " ms" + (faults() == null ? "" : injecting()
                            ? "; faults injected (seed " + seed() + ")" : "; no faults injected (fault report)"));
            report.add("the replica ready " + readyMs + " ms after its process started (its warm-up "
                    + (warmUp.find() ? warmUp.group(1) + " ms" : "off") + (jvm.isEmpty() ? "" : ", " + jvm) + ");"
                    + " cold: the first calls it gets once ready; warm: the same calls again");
            Matcher stages = Pattern.compile("\"(\\w+_ms)\"\\s*:\\s*\"?([^\",}]+)|\"(calls)\"\\s*:\\s*\"([^\"]*)\"")
                    .matcher(ready);
            List<String> warmed = new ArrayList<>();
            while (stages.find()) {
                warmed.add(stages.group(1) != null ? stages.group(1) + " " + stages.group(2)
                        : stages.group(3) + ": " + stages.group(4));
            }
            if (!warmed.isEmpty()) {
                report.add("its warm-up's stages: " + String.join("; ", warmed));
            }
            if (traceTo != null) {
                report.add("tracing " + System.getProperty("bench.tracing") + ": every call traced to the collector"
                        + " (Quarkus's SDK) and the organization's Langfuse project, both at " + traceTo);
            }
            boolean cold = true;
            for (int calls : levels) {
                for (int round = 0; round < rounds(); round++) {
                    report.add((cold ? "cold " : "warm ") + level(app, vertx, workflow, calls));
                    cold = false;
                    System.out.println(report.getLast());
                }
            }
            if (traceTo != null) {
                Thread.sleep(2_000); // the last turns' batches
                report.add("traces: " + traceReceiver.spans.get() + " spans received by the stand-in; the Langfuse"
                        + " queue's outcomes " + app.get("/q/metrics").lines().filter(l -> l.startsWith(
                                "voiceagent_trace_spans_total{")).map(l -> l.replaceAll(".*outcome=\"(\\w+)\".* ", "$1="))
                        .toList());
            }
        } finally {
            vertx.close();
            voices.stop();
            twilio.stop();
            if (traceReceiver != null) {
                traceReceiver.server.stop(0);
            }
        }
        String text = String.join(System.lineSeparator(), report);
        System.out.println(text);
        Path out = Path.of(jar.getParent().getParent().toString(), "bench-voice-calls.txt");
        Files.writeString(out, text + System.lineSeparator());
        System.out.println("Written to " + out);
    }

    /** A stand-in OTLP receiver (a collector's, a Langfuse project's): counts the spans it gets, answers 200. */
    private static final class TraceReceiver {

        final java.util.concurrent.atomic.AtomicLong spans = new java.util.concurrent.atomic.AtomicLong();
        final com.sun.net.httpserver.HttpServer server;

        TraceReceiver() throws java.io.IOException {
            server = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
            server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(2, r -> {
                Thread t = new Thread(r, "trace-receiver");
                t.setDaemon(true); // the harness exits when its report is written
                return t;
            }));
            server.createContext("/", exchange -> {
                byte[] body = exchange.getRequestBody().readAllBytes();
                spans.addAndGet(io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.parseFrom(body)
                        .getResourceSpansList().stream().flatMap(r -> r.getScopeSpansList().stream())
                        .mapToLong(ss -> ss.getSpansCount()).sum());
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
        }

        String base() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }
    }

    private static TraceReceiver traceReceiver;

    /**
     * The benchmark's organization on {@code app}: its call limit raised, its models (the fakes), tracing where asked,
     * the workflow and a carrier's number. Returns the workflow.
     */
    private static long setUp(BenchApp app, String traceTo, FakeAsterisk pbx) throws Exception {
        app.signUp();
        long org = (long) app.queryDouble("SELECT id FROM organizations ORDER BY id DESC LIMIT 1");
        try (Connection c = app.sql(); PreparedStatement ps = c.prepareStatement(
                "UPDATE organizations SET concurrent_call_limit = 1000 WHERE id = ?")) {
            ps.setLong(1, org);
            ps.executeUpdate();
        }
        if (traceTo != null) { // the organization's Langfuse project: the same receiver, or nobody
            app.post("/api/v1/organizations/tracing-credentials", ("{\"host\": \"%s\", \"public_key\":"
                    + " \"pk-lf-bench\", \"secret_key\": \"sk-lf-bench\", \"project_id\": \"bench\"}")
                    .formatted(traceTo), null);
        }
        app.put("/api/v1/organizations/model-configurations/v2", realtime() ? """
                {"version": 2, "mode": "byok", "byok": {"mode": "realtime", "realtime": {
                  "realtime": %s,
                  "llm": {"provider": "openai", "api_key": "sk-bench", "model": "gpt-4.1-mini"}}}}"""
                .formatted(realtimeModel(FakeVoiceProviders.base)) : """
                {"version": 2, "mode": "byok", "byok": {"mode": "pipeline", "pipeline": {
                  "llm": {"provider": "openai", "api_key": "sk-bench", "model": "gpt-4.1-mini"},
                  "stt": %s,
                  "tts": %s}}}""".formatted(ear(), voice()));
        long workflow = Long.parseLong(BenchApp.field(app.post("/api/v1/workflow/create/definition", WORKFLOW,
                null), "id"));
        long config = Long.parseLong(BenchApp.field(app.post("/api/v1/organizations/telephony-configs",
                carrierConfiguration(), null), "id"));
        app.post("/api/v1/organizations/telephony-configs/" + config + "/phone-numbers",
                "{\"address\":\"+14155552671\"}", null);
        if (pbx != null) {
            pbx.listening.get(30, TimeUnit.SECONDS); // the replica holds the PBX's events
        }
        return workflow;
    }

    /**
     * {@code -Dbench.tracing=on}: the replica traces every call to its collector and to the organization's Langfuse
     * project, both a stand-in receiver here; {@code =unreachable}: both at an address nobody answers (the calls must
     * not notice, the queues stay bounded). Where the organization's project is; null when tracing is off.
     */
    private static String tracing(Map<String, String> env) throws java.io.IOException {
        String mode = System.getProperty("bench.tracing", "").strip();
        if (mode.isEmpty() || mode.equals("off")) {
            return null;
        }
        String to;
        if (mode.equals("on")) {
            traceReceiver = new TraceReceiver();
            to = traceReceiver.base();
        } else if (mode.equals("unreachable")) {
            traceReceiver = new TraceReceiver(); // counts nothing: nobody sends to it
            to = "http://127.0.0.1:9";
        } else {
            throw new IllegalArgumentException("bench.tracing is on, unreachable or off");
        }
        env.put("QUARKUS_OTEL_SDK_DISABLED", "false");
        env.put("QUARKUS_OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", to + "/v1/traces");
        env.put("VOICEAGENT_OUTBOUND_ALLOWED", "127.0.0.1"); // the project is a tenant's address, here a local one
        return to;
    }

    private static String variable(String property) {
        return property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The fakes of the measured run (how late their delays fired is part of each level's report). */
    private static FakeVoiceProviders fakes;

    private static String level(BenchApp app, Vertx vertx, long workflow, int calls) throws Exception {
        fakes.late.clear();
        long runsBefore = (long) app.queryDouble("SELECT COALESCE(max(id), 0) FROM workflow_runs");
        if (browser()) {
            return browserLevel(app, vertx, workflow, calls, runsBefore);
        }
        List<String> urls = new ArrayList<>();
        List<Long> runs = new ArrayList<>();
        List<String> tags = new ArrayList<>();
        Random plans = new Random(seed() + calls);
        for (int i = 0; i < calls; i++) {
            long dialed = workflow;
            if (faults() != null) { // the call's own workflow and keys, and the faults its providers will make
                String tag = "c" + calls + "-" + i;
                tags.add(tag);
                dialed = Long.parseLong(BenchApp.field(app.post("/api/v1/workflow/create/definition",
                        WORKFLOW.replace("Bench voice", "Bench voice " + tag), null), "id"));
                app.put("/api/v1/workflow/" + dialed, ("{\"workflow_configurations\": {\"model_overrides\": {"
                        + "\"llm\": {\"api_key\": \"sk-%s\"}, \"stt\": {\"api_key\": \"dg-%s\"},"
                        + " \"tts\": {\"api_key\": \"el-%s\"}}}}").formatted(tag, tag, tag));
                if (injecting()) {
                    Faults plan = plan(plans);
                    for (String key : List.of("sk-" + tag, "dg-" + tag, "el-" + tag)) {
                        FakeVoiceProviders.FAULTS.put(key, plan);
                    }
                }
            }
            FakeProviderServer.REQUESTS.clear();
            String initiated = app.post("/api/v1/telephony/initiate-call", "{\"workflow_id\":" + dialed
                    + ",\"phone_number\":\"+442071838750\"}", null);
            runs.add(Long.parseLong(BenchApp.field(initiated, "workflow_run_id")));
            urls.add(mediaAddress(app, runs.getLast()));
        }
        long[] rssBefore = app.rssKb();
        CpuTime before = CpuTime.now(app.process.pid());
        CpuTime loadBefore = CpuTime.now(ProcessHandle.current().pid());
        long started = System.currentTimeMillis();
        List<SimulatedCaller> callers = new ArrayList<>();
        int pause = pause();
        for (String url : urls) {
            SimulatedCaller caller = new SimulatedCaller(vertx, callerCarrier(), "PCMU").connect(url);
            caller.pauses(1_500).says("Where is my order?").pauses(pause).says("When will it arrive?").pauses(pause)
                    .says("Can I change it?").pauses(pause).says("Tell me about returns.").pauses(2_000)
                    .says("Stop right there.").pauses(1_600);
            callers.add(caller);
            Thread.sleep(Math.max(5, 2_000 / calls)); // calls arrive over about two seconds, not in one instant
        }
        long scriptMs = 1_500 + 3 * pause + 2_000 + 1_600 + lineMs("Where is my order?", "When will it arrive?",
                "Can I change it?", "Tell me about returns.", "Stop right there.");
        Map<SimulatedCaller, Long> hungUp = new HashMap<>();
        long[] rss = null;
        if (faults() == null) {
            Thread.sleep(scriptMs + 500);
            rss = app.rssKb(); // every call still live
            callers.forEach(SimulatedCaller::hangUp);
        } else { // each caller hangs up 500 ms after its own script, however late a loaded box played it
            hungUp = hangUpAfterScripts(callers, scriptMs);
        }
        long callMs = System.currentTimeMillis() - started;
        for (SimulatedCaller caller : callers) {
            caller.closed.get(10, TimeUnit.SECONDS);
        }
        CpuTime used = CpuTime.now(app.process.pid()).minus(before);
        CpuTime load = CpuTime.now(ProcessHandle.current().pid()).minus(loadBefore);
        List<Long> overhead = new ArrayList<>();
        List<List<Long>> byTurn = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<Long> bargeIn = new ArrayList<>();
        List<Long> afterCut = new ArrayList<>();
        int underruns = 0;
        int pauses = 0;
        int odd = 0;
        for (SimulatedCaller caller : callers) {
            underruns += caller.underruns;
            pauses += caller.sentencePauses;
            if (caller.speech.size() != 5 || caller.clears.isEmpty()) {
                odd++;
                if (odd == 1) {
                    System.out.println("off script: " + caller.speech.size() + " lines, " + caller.clears.size()
                            + " clears, closed " + caller.closed.getNow(null));
                }
            }
            for (int turn = 0; turn < Math.min(3, caller.speech.size()); turn++) {
                long end = caller.speech.get(turn)[1];
                long first = caller.firstAgentFrameAfter(end);
                if (first > 0) {
                    overhead.add(first - end - designedMs());
                    byTurn.get(turn).add(first - end - designedMs());
                }
            }
            if (caller.speech.size() >= 5) { // the clear the last line caused (a greeting may have been cut before)
                long start = caller.speech.get(4)[0];
                caller.clears.stream().filter(at -> at >= start).findFirst().ifPresent(at -> bargeIn.add(at - start));
                long end = caller.speech.get(4)[1];
                long first = caller.firstAgentFrameAfter(end);
                if (first > 0) {
                    afterCut.add(first - end - designedMs());
                }
            }
            caller.close();
        }
        String faultReport = faults() == null ? "" : "\n     " + faultReport(app, urls, tags, callers, hungUp);
        Map<Long, List<long[]>> events = latencyEvents(app, runsBefore);
        List<Long> pipeline = ownPart(events);
        String where = whereItWent(events, runs, callers.stream().map(Heard::of).toList());
        double callSeconds = calls * (callMs / 1000.0);
        return ("%3d calls: overhead p50 %d ms, p99 %d ms (%d answers; after voice activity's stop p50 %d ms, p99 %d ms;"
                + turns(byTurn) + where + ");"
                + " barge-in p50 %d ms, p99 %d ms (%d), the answer after it " + afterCut(afterCut) + "; underruns %d mid-sentence, %d pauses between sentences;")
                .formatted(calls, percentile(overhead, 50), percentile(overhead, 99), overhead.size(),
                        percentile(pipeline, 50), percentile(pipeline, 99),
                        percentile(bargeIn, 50), percentile(bargeIn, 99), bargeIn.size(), underruns, pauses)
                + " app CPU %.1f ms per call-second (%.1f%% of one core per call), PostgreSQL %.0f ms in all;"
                        .formatted(used.applicationMs() / callSeconds, used.applicationMs() / callSeconds / 10,
                                used.postgresMs())
                + memory(rss, rssBefore, calls)
                + " callers and fakes %.0f%% of one core (their delays late %s); %d calls off script"
                        .formatted(load.applicationMs() / callMs * 100, late(), odd) + faultReport;
    }

    /**
     * Overhead p50 / p99 of the answer to the line that cut into the agent (its words settled while the agent was held,
     * or over two finals where voice activity heard a pause in it).
     */
    private static String afterCut(List<Long> overhead) {
        return "p50 %d / p99 %d ms".formatted(percentile(overhead, 50), percentile(overhead, 99));
    }

    /** Overhead p50 / p99 of each call's first, second and third answer. */
    private static String turns(List<List<Long>> byTurn) {
        List<String> each = new ArrayList<>();
        for (List<Long> turn : byTurn) {
            each.add(percentile(turn, 50) + " / " + percentile(turn, 99));
        }
        return " by answer " + String.join(", ", each) + " ms";
    }

    /**
     * The service's resident memory while every call of the level was live, against before the level (the heap is
     * bounded by the JVM's options, so most of a call's share shows as the heap filling up to its bound).
     */
    private static String memory(long[] live, long[] before, int calls) {
        if (live == null) {
            return "";
        }
        return " RSS %d MB with the calls live (%d MB before them: %d kB a call; peak %d MB);".formatted(
                live[0] / 1024, before[0] / 1024, Math.max(0, live[0] - before[0]) / calls, live[1] / 1024);
    }

    /**
     * Browser calls: runs created as an editor's test call would (mode smallwebrtc), each a {@link BrowserCaller} on
     * the plain WebSocket route saying the same script in 16 kHz PCM, or a {@link WebRtcCaller} saying it in Opus over
     * WebRTC; also the time from the socket's opening to the greeting's first audio (for WebRTC: ICE and DTLS too).
     */
    private static String browserLevel(BenchApp app, Vertx vertx, long workflow, int calls, long runsBefore)
            throws Exception {
        List<String> urls = new ArrayList<>();
        List<Long> runs = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            String run = BenchApp.field(app.post("/api/v1/workflow/" + workflow + "/runs",
                    "{\"mode\":\"smallwebrtc\",\"name\":\"bench\"}", null), "id");
            runs.add(Long.parseLong(run));
            urls.add(app.base.replace("http://localhost", "ws://127.0.0.1")
                    + ("webrtc".equals(transport()) ? "/api/v1/ws/signaling/" : "/api/v1/ws/voice/") + workflow + "/"
                    + run + "?token=" + app.apiKey);
        }
        long[] rssBefore = app.rssKb();
        CpuTime before = CpuTime.now(app.process.pid());
        CpuTime loadBefore = CpuTime.now(ProcessHandle.current().pid());
        long started = System.currentTimeMillis();
        List<ScriptedCaller> callers = new ArrayList<>();
        List<Long> connectedAt = new ArrayList<>();
        for (String url : urls) {
            connectedAt.add(System.currentTimeMillis());
            ScriptedCaller caller = "webrtc".equals(transport()) ? new WebRtcCaller(vertx).connect(url)
                    : new BrowserCaller(vertx).connect(url, null);
            caller.pauses(1_500).says("Where is my order?").pauses(2_200).says("When will it arrive?").pauses(2_200)
                    .says("Can I change it?").pauses(2_200).says("Tell me about returns.").pauses(2_000)
                    .says("Stop right there.").pauses(1_600);
            callers.add(caller);
            Thread.sleep(Math.max(5, 2_000 / calls));
        }
        long scriptMs = 1_500 + 3 * 2_200 + 2_000 + 1_600;
        for (String line : List.of("Where is my order?", "When will it arrive?", "Can I change it?",
                "Tell me about returns.", "Stop right there.")) {
            scriptMs += Speech.pcm16k(line).length / 32;
        }
        Thread.sleep(scriptMs + 500);
        long[] rss = app.rssKb(); // every call still live
        // hang up: the plain route's hangup message; over WebRTC, as the dashboard does, by closing the signaling
        callers.forEach(c -> {
            if (c instanceof WebRtcCaller) {
                c.close();
            } else {
                c.send(new JsonObject().put("type", "hangup"));
            }
        });
        long callMs = System.currentTimeMillis() - started;
        for (ScriptedCaller caller : callers) {
            caller.closed().get(10, TimeUnit.SECONDS);
        }
        CpuTime used = CpuTime.now(app.process.pid()).minus(before);
        CpuTime load = CpuTime.now(ProcessHandle.current().pid()).minus(loadBefore);
        List<Long> firstAudio = new ArrayList<>();
        List<Long> overhead = new ArrayList<>();
        List<List<Long>> byTurn = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<Long> bargeIn = new ArrayList<>();
        List<Long> afterCut = new ArrayList<>();
        int odd = 0;
        for (int i = 0; i < callers.size(); i++) {
            ScriptedCaller caller = callers.get(i);
            long first = caller.firstAgentFrameAfter(0);
            if (first > 0) {
                firstAudio.add(first - connectedAt.get(i));
            }
            if (caller.speech().size() != 5 || caller.clears().isEmpty()) {
                odd++;
            }
            for (int turn = 0; turn < Math.min(3, caller.speech().size()); turn++) {
                long end = caller.speech().get(turn)[1];
                long answer = caller.firstAgentFrameAfter(end);
                if (answer > 0) {
                    overhead.add(answer - end - designedMs());
                    byTurn.get(turn).add(answer - end - designedMs());
                }
            }
            if (caller.speech().size() >= 5) {
                long start = caller.speech().get(4)[0];
                caller.clears().stream().filter(at -> at >= start).findFirst().ifPresent(at -> bargeIn.add(at - start));
                long end = caller.speech().get(4)[1];
                long answer = caller.firstAgentFrameAfter(end);
                if (answer > 0) {
                    afterCut.add(answer - end - designedMs());
                }
            }
            caller.close();
        }
        Map<Long, List<long[]>> events = latencyEvents(app, runsBefore);
        List<Long> pipeline = ownPart(events);
        String where = whereItWent(events, runs, callers.stream().map(Heard::of).toList());
        double callSeconds = calls * (callMs / 1000.0);
        String setup = "";
        if ("webrtc".equals(transport())) { // the offer's answer, the first ICE check, DTLS: p50 / p99 each
            List<Long> answer = new ArrayList<>();
            List<Long> ice = new ArrayList<>();
            List<Long> dtls = new ArrayList<>();
            for (ScriptedCaller c : callers) {
                WebRtcCaller w = (WebRtcCaller) c;
                Long secured = w.dialer.connected.getNow(null);
                if (w.dialer.answered > 0) {
                    answer.add(w.dialer.answered - w.dialer.offered);
                }
                if (w.dialer.checked > 0) {
                    ice.add(w.dialer.checked - w.dialer.answered);
                }
                if (secured != null && w.dialer.checked > 0) {
                    dtls.add(secured - w.dialer.checked);
                }
            }
            setup = " set-up: answer p50 %d / p99 %d ms, ICE check %d / %d ms, DTLS %d / %d ms (%d of %d connected);"
                    .formatted(percentile(answer, 50), percentile(answer, 99), percentile(ice, 50),
                            percentile(ice, 99), percentile(dtls, 50), percentile(dtls, 99), dtls.size(), calls);
        }
        return ("%3d " + transport() + " calls:" + setup + " first audio after the socket opened p50 %d ms, p99 %d ms;"
                + " overhead p50 %d ms,"
                + " p99 %d ms (%d answers; after voice activity's stop p50 %d ms, p99 %d ms;" + turns(byTurn)
                + where + "); barge-in p50 %d ms,"
                + " p99 %d ms (%d), the answer after it " + afterCut(afterCut) + "; app CPU %.1f%% of one core per call;%s callers and fakes %.0f%% of one core (their delays late " + late() + ");"
                + " %d calls off script")
                .formatted(calls, percentile(firstAudio, 50), percentile(firstAudio, 99), percentile(overhead, 50),
                        percentile(overhead, 99), overhead.size(), percentile(pipeline, 50),
                        percentile(pipeline, 99), percentile(bargeIn, 50), percentile(bargeIn, 99), bargeIn.size(),
                        used.applicationMs() / callSeconds / 10, memory(rss, rssBefore, calls),
                        load.applicationMs() / callMs * 100, odd);
    }

    /**
     * Hangs up each caller 500 ms after its script was played (at the latest 12 s after the script's length); when
     * each hung up.
     */
    private static Map<SimulatedCaller, Long> hangUpAfterScripts(List<SimulatedCaller> callers, long scriptMs)
            throws InterruptedException {
        Thread.sleep(scriptMs - 2_000);
        Map<SimulatedCaller, Long> played = new HashMap<>();
        Map<SimulatedCaller, Long> hungUp = new HashMap<>();
        long deadline = System.currentTimeMillis() + 12_000;
        while (played.size() < callers.size() || played.values().stream().anyMatch(at -> at > 0)) {
            long now = System.currentTimeMillis();
            for (SimulatedCaller caller : callers) {
                Long at = played.get(caller);
                if (at == null && (caller.scriptPlayed() || now > deadline)) {
                    played.put(caller, now);
                } else if (at != null && at > 0 && now - at >= 500) {
                    caller.hangUp();
                    played.put(caller, 0L);
                    hungUp.put(caller, now);
                }
            }
            Thread.sleep(20);
        }
        return hungUp;
    }

    static long seed() {
        String seed = System.getProperty("bench.seed", "");
        return seed.isBlank() ? 20261128L : Long.parseLong(seed.strip());
    }

    /**
     * One call's faults, drawn: Deepgram dropped in the middle of the second or third line (its reconnection refused
     * once with 503 half the time); the model's answer to the second or third line refused with 500, with 429 and
     * Retry-After: 1, or broken after 1-4 words; ElevenLabs dropped after the first audio of one of the first three
     * answers' sentences (3rd to 8th of the call; its reconnection refused once half the time).
     */
    static Faults plan(Random random) {
        Faults plan = new Faults();
        plan.sttDropAfterFinals = 1 + random.nextInt(2);
        plan.sttDropAtVoicedFrame = 3 + random.nextInt(35);
        plan.sttRefusalsAfterDrop = random.nextBoolean() ? 1 : 0;
        int turn = 2 + random.nextInt(2);
        plan.chat.put(turn, switch (random.nextInt(3)) {
            case 0 -> ChatFault.refused(500);
            case 1 -> ChatFault.tooMany(1);
            default -> ChatFault.breakAfter(1 + random.nextInt(4));
        });
        plan.ttsDropAtSentence = 3 + random.nextInt(6);
        plan.ttsRefusalsAfterDrop = random.nextBoolean() ? 1 : 0;
        return plan;
    }

    /** Where the service keeps the runs' transcripts (its local object store). */
    private static Path objects;

    /**
     * What the faults did to the calls: which ended as scripted, the faults injected, the extra delay of the answers
     * that came after one, usage against what the fakes served, and the transcripts' completeness.
     */
    private static String faultReport(BenchApp app, List<String> urls, List<String> tags,
            List<SimulatedCaller> callers, Map<SimulatedCaller, Long> hungUp) throws Exception {
        Map<Long, JsonObject> runs = new HashMap<>();
        List<Long> ids = urls.stream().map(VoiceCallBenchmark::runOf).toList();
        for (int wait = 0; wait < 300 && runs.size() < ids.size(); wait++) { // the runs' end is written after the close
            runs.clear();
            try (Connection c = app.sql(); PreparedStatement ps = c.prepareStatement("SELECT id, transcript_url,"
                    + " gathered_context::text, usage_info::text, logs::text FROM workflow_runs"
                    + " WHERE is_completed AND id = ANY(?)")) {
                ps.setArray(1, c.createArrayOf("bigint", ids.toArray()));
                try (var rows = ps.executeQuery()) {
                    while (rows.next()) {
                        runs.put(rows.getLong(1), new JsonObject().put("transcript", rows.getString(2))
                                .put("context", new JsonObject(rows.getString(3)))
                                .put("usage", new JsonObject(rows.getString(4)))
                                .put("logs", new JsonObject(rows.getString(5))));
                    }
                }
            }
            if (runs.size() < ids.size()) {
                Thread.sleep(100);
            }
        }
        Map<String, Integer> dispositions = new TreeMap<>();
        int normal = 0;
        int complete = 0;
        List<String> incomplete = new ArrayList<>();
        List<Long> unaffected = new ArrayList<>();
        List<Long> affected = new ArrayList<>(); // voice-to-voice of the answers a fault came before
        Map<String, List<Long>> affectedBy = new TreeMap<>(); // the same, by the faults that came before them
        long charactersMetered = 0;
        long charactersSent = 0;
        int charactersExact = 0;
        long tokensMetered = 0;
        long tokensSent = 0;
        int tokensExact = 0;
        double secondsMetered = 0;
        double secondsStreamed = 0;
        double secondsReceived = 0;
        double worstSeconds = 0;
        int underruns = 0;
        for (int i = 0; i < callers.size(); i++) {
            SimulatedCaller caller = callers.get(i);
            String tag = tags.get(i);
            JsonObject run = runs.get(ids.get(i));
            underruns += caller.underruns;
            if (run == null) {
                dispositions.merge("not completed", 1, Integer::sum);
                continue;
            }
            String disposition = run.getJsonObject("context").getString("call_disposition");
            dispositions.merge(disposition, 1, Integer::sum);
            if ("user_hangup".equals(disposition) && run.getJsonObject("context").getString("error") == null) {
                normal++;
            }
            String missing = transcriptGaps(Files.readString(objects.resolve(run.getString("transcript"))));
            List<Injected> faults = FakeVoiceProviders.INJECTED.stream().filter(f -> ofCall(f, tag)).toList();
            if (missing.isEmpty()) {
                complete++;
            } else if (incomplete.size() < 3) { // what happened to it: its faults, its last line, its log's end
                JsonArray events = run.getJsonObject("logs").getJsonArray("realtime_feedback_events",
                        new JsonArray());
                List<String> last = new ArrayList<>();
                for (int e = Math.max(0, events.size() - 6); e < events.size(); e++) {
                    last.add(events.getJsonObject(e).getString("type"));
                }
                incomplete.add(tag + ": " + missing + " (faults " + faults.stream().map(f -> f.provider() + " "
                        + f.fault()).toList() + "; its last line ended " + (hungUp.get(caller) - caller.speech.getLast()[1])
                        + " ms before the hang-up; the log's last events " + last + ")");
            }
            for (int turn = 0; turn < Math.min(3, caller.speech.size()); turn++) {
                long start = caller.speech.get(turn)[0];
                long end = caller.speech.get(turn)[1];
                long first = caller.firstAgentFrameAfter(end);
                if (first <= 0) {
                    continue;
                }
                String kinds = String.join(" + ", faults.stream().filter(f -> f.at() >= start && f.at() <= first)
                        .map(VoiceCallBenchmark::kind).collect(Collectors.toCollection(TreeSet::new)));
                if (kinds.isEmpty()) {
                    unaffected.add(first - end);
                } else {
                    affected.add(first - end);
                    affectedBy.computeIfAbsent(kinds, k -> new ArrayList<>()).add(first - end);
                }
            }
            JsonObject usage = run.getJsonObject("usage");
            long characters = sum(usage.getJsonObject("tts"), "characters");
            long spoken = FakeVoiceProviders.spokenCharacters("el-" + tag);
            charactersMetered += characters;
            charactersSent += spoken;
            charactersExact += characters == spoken ? 1 : 0;
            long tokens = sum(usage.getJsonObject("llm"), "total_tokens");
            long sent = FakeVoiceProviders.TOKENS_SENT.getOrDefault("sk-" + tag, new AtomicLong()).get();
            tokensMetered += tokens;
            tokensSent += sent;
            tokensExact += tokens == sent ? 1 : 0;
            double seconds = usage.getJsonObject("stt").stream()
                    .mapToDouble(e -> ((JsonObject) e.getValue()).getDouble("audio_seconds")).sum();
            double streamed = caller.mediaFramesSent() * 0.02;
            secondsMetered += seconds;
            secondsStreamed += streamed;
            secondsReceived += FakeVoiceProviders.STT_BYTES.getOrDefault("dg-" + tag, new AtomicLong()).get() / 8_000.0;
            worstSeconds = Math.max(worstSeconds, Math.abs(seconds - streamed));
        }
        long unaffectedP50 = percentile(unaffected, 50);
        List<Long> extra = affected.stream().map(a -> a - unaffectedP50).toList();
        List<String> byKind = new ArrayList<>();
        affectedBy.forEach((kinds, delays) -> {
            List<Long> over = delays.stream().map(a -> a - unaffectedP50).toList();
            byKind.add("%s %d / %d ms (%d)".formatted(kinds, percentile(over, 50), percentile(over, 99), over.size()));
        });
        Map<String, Integer> injected = new TreeMap<>();
        for (Injected f : FakeVoiceProviders.INJECTED) {
            if (tags.stream().anyMatch(tag -> ofCall(f, tag))) {
                injected.merge(f.provider() + " " + f.fault().replaceAll("\\d+ words", "n words"), 1, Integer::sum);
            }
        }
        return ("faults injected %s; calls ended as scripted (user_hangup, no error) %d of %d %s;"
                + " answers after a fault %d of %d, their extra delay over the unaffected p50 (%d ms): p50 %d ms,"
                + " p99 %d ms (unaffected voice-to-voice p99 %d ms), by the faults before them p50 / p99 %s;"
                + " underruns %d;"
                + " tts characters metered %d vs sent whole by the fakes %d (exact in %d of %d calls);"
                + " llm tokens metered %d vs sent %d (exact in %d calls); stt seconds metered %.1f vs streamed by the"
                + " callers %.1f (largest gap in one call %.2f s) vs received by the recognizer %.1f;"
                + " transcripts with every line once %d of %d%s").formatted(injected, normal, callers.size(),
                dispositions, affected.size(), affected.size() + unaffected.size(), unaffectedP50,
                percentile(extra, 50), percentile(extra, 99), percentile(unaffected, 99), byKind, underruns,
                charactersMetered, charactersSent, charactersExact, callers.size(), tokensMetered, tokensSent,
                tokensExact, secondsMetered, secondsStreamed, worstSeconds, secondsReceived, complete,
                callers.size(), incomplete.isEmpty() ? "" : " " + incomplete);
    }

    /** A fault's kind: stt or tts drop or refused, llm 500, 429 or break. */
    private static String kind(Injected fault) {
        if (fault.provider().equals("llm")) {
            return "llm " + fault.fault().split(" ")[0];
        }
        return fault.provider() + (fault.fault().contains("refused") ? " refused" : " drop");
    }

    /** Whether a fault struck the call of this tag (its keys are sk-, dg- and el- then the tag). */
    private static boolean ofCall(Injected fault, String tag) {
        return fault.credential() != null && fault.credential().length() > 3
                && fault.credential().substring(3).equals(tag);
    }

    private static long sum(JsonObject byProvider, String field) {
        if (byProvider == null) {
            return 0;
        }
        return byProvider.stream().mapToLong(e -> ((JsonObject) e.getValue()).getLong(field, 0L)).sum();
    }

    private static long runOf(String url) {
        String[] parts = url.split("/");
        return Long.parseLong(parts[parts.length - 2]);
    }

    /**
     * What a call's transcript lacks or has twice, against the script: the greeting, each line and its answer once, in
     * order, the answer the caller cut into as the start of it (what was heard); empty when whole.
     */
    static String transcriptGaps(String transcript) {
        List<String> expected = new ArrayList<>();
        expected.add("assistant: " + GREETING);
        for (String line : LINES) {
            expected.add("user: " + line);
            expected.add("assistant: " + REPLIES.get(line).text());
        }
        List<String> got = transcript.lines().filter(l -> !l.isBlank()).toList();
        List<String> gaps = new ArrayList<>();
        for (int i = 0; i < Math.max(expected.size(), got.size()); i++) {
            String want = i < expected.size() ? expected.get(i) : null;
            String have = i < got.size() ? got.get(i) : null;
            boolean cut = want != null && want.contains("Returns are free"); // the barge-in keeps what was heard
            boolean same = want != null && have != null && (cut ? want.startsWith(have) && have.startsWith(
                    "assistant: Okay.") : want.equals(have));
            if (!same) {
                gaps.add("line " + (i + 1) + " '" + have + "' where '" + want + "'");
                break;
            }
        }
        return String.join("; ", gaps);
    }

    /**
     * The service's own part after voice activity heard the caller stop, from each answer's latency event: stop to
     * first frame, minus the model's first text, minus its first sentence's first audio, minus the recognizer's 150 ms.
     */
    private static List<Long> ownPart(Map<Long, List<long[]>> events) {
        return events.values().stream().flatMap(List::stream).map(e -> e[2]).toList();
    }

    /**
     * Each answer's latency event of the runs after {@code runsBefore}, by run: {when its first audio went out (epoch
     * ms), voice activity's stop to then, the service's own part (as {@link #ownPart})}.
     */
    private static Map<Long, List<long[]>> latencyEvents(BenchApp app, long runsBefore) throws Exception {
        Map<Long, List<long[]>> events = new HashMap<>();
        Thread.sleep(1_000); // the runs' end is written just after the sockets close
        try (Connection c = app.sql(); PreparedStatement ps = c.prepareStatement("""
                SELECT r.id, e->>'timestamp',
                       (e->'payload'->>'user_stop_to_bot_started_ms')::bigint,
                       (e->'payload'->>'user_stop_to_bot_started_ms')::bigint
                       - (e->'payload'->>'llm_first_text_ms')::bigint
                       - (e->'payload'->>'tts_first_audio_ms')::bigint - 150
                  FROM workflow_runs r, jsonb_array_elements(r.logs->'realtime_feedback_events') e
                 WHERE r.id > ? AND e->>'type' = 'rtf-latency-measured'
                   AND e->'payload'->>'llm_first_text_ms' IS NOT NULL""")) {
            ps.setLong(1, runsBefore);
            try (var rows = ps.executeQuery()) {
                while (rows.next()) {
                    long played = Instant.parse(rows.getString(2)).toEpochMilli();
                    events.computeIfAbsent(rows.getLong(1), k -> new ArrayList<>())
                            .add(new long[] {played, rows.getLong(3), rows.getLong(4)});
                }
            }
        }
        return events;
    }

    /**
     * Where each of the first three answers' overhead went, from the caller's clock and the service's latency event
     * (both this machine's wall clock): the caller's last speech frame to voice activity's stop beyond its designed
     * silence (the frames' way in, decoding, the detector's queue and windows), the service's own part after the stop
     * (as {@link #ownPart}), and the answer's first frame from the session to the caller's ear (encoding, pacing, the
     * way out); p50 / p99 each. Empty when no event matched.
     */
    private static String whereItWent(Map<Long, List<long[]>> events, List<Long> runs, List<Heard> callers) {
        List<Long> out = new ArrayList<>();
        List<List<Long>> toStopByTurn = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<List<Long>> ownByTurn = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        long silence = VoiceSessionFactory.ACTIVITY.stop().toMillis();
        for (int i = 0; i < callers.size(); i++) {
            Heard caller = callers.get(i);
            List<long[]> run = events.getOrDefault(runs.get(i), List.of());
            for (int turn = 0; turn < Math.min(3, caller.speech().size()); turn++) {
                long end = caller.speech().get(turn)[1];
                long heard = caller.firstFrameAfter().applyAsLong(end);
                long[] event = run.stream().filter(e -> e[0] >= end && e[0] <= heard + 5)
                        .max(Comparator.comparingLong(e -> e[0])).orElse(null);
                if (heard > 0 && event != null) {
                    toStopByTurn.get(turn).add(event[0] - event[1] - end - silence);
                    ownByTurn.get(turn).add(event[2]);
                    out.add(heard - event[0]);
                }
            }
        }
        if (out.isEmpty()) {
            return "";
        }
        List<Long> toStop = toStopByTurn.stream().flatMap(List::stream).toList();
        List<Long> own = ownByTurn.stream().flatMap(List::stream).toList();
        return "; where it went (%d answers): to voice activity's stop %d / %d (%s), the service's part %d / %d (%s),"
                .formatted(own.size(), percentile(toStop, 50), percentile(toStop, 99), turns(toStopByTurn).strip(),
                        percentile(own, 50), percentile(own, 99), turns(ownByTurn).strip())
                + " the first"
                + " frame's way out %d / %d ms".formatted(percentile(out, 50), percentile(out, 99));
    }

    /** What a caller said (each line's voiced start and end, epoch ms) and when it first heard the agent after a time. */
    private record Heard(List<long[]> speech, LongUnaryOperator firstFrameAfter) {

        static Heard of(ScriptedCaller caller) {
            return new Heard(caller.speech(), caller::firstAgentFrameAfter);
        }

        static Heard of(SimulatedCaller caller) {
            return new Heard(caller.speech, caller::firstAgentFrameAfter);
        }
    }

    /** How late the fakes' designed delays fired this level, p50 / p99: the harness's lag, inside the overhead. */
    private static String late() {
        List<Long> late = new ArrayList<>(fakes.late);
        return "p50 %d / p99 %d ms".formatted(percentile(late, 50), percentile(late, 99));
    }

    private static long lineMs(String... lines) {
        long ms = 0;
        for (String line : lines) {
            ms += Speech.mulaw(line).length / 8;
        }
        return ms;
    }

    private static long percentile(List<Long> values, int p) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }
}
