package dev.voiceagent.deploy.bench;

import dev.voiceagent.adapters.media.webrtc.WebRtcCaller;
import dev.voiceagent.adapters.telephony.FormBody;
import dev.voiceagent.application.voice.runtime.VoiceSessionFactory;
import dev.voiceagent.deploy.support.BrowserCaller;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.ScriptedCaller;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.deploy.support.Speech;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * <li>the application's CPU per call-second (from /proc), and the calls that did not end as scripted.</li>
 * </ul>
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
     * The voice spoken with: -Dbench.tts=elevenlabs (the default) or cartesia, each against its fake; or realtime:
     * the calls run on the speech-to-speech model (the OpenAI Realtime fake) instead of the pipeline.
     */
    static String voice() {
        return switch (System.getProperty("bench.tts", "elevenlabs")) {
            case "elevenlabs" -> "{\"provider\": \"elevenlabs\", \"api_key\": \"el-bench\", \"voice\": \"v1\"}";
            case "cartesia" -> "{\"provider\": \"cartesia\", \"api_key\": \"ca-bench\", \"voice\": \"v1\"}";
            case "realtime" -> null;
            default -> throw new IllegalArgumentException("bench.tts: elevenlabs, cartesia or realtime");
        };
    }

    /**
     * phone (Twilio Media Streams, μ-law 8 kHz), browser (the plain WebSocket voice route, PCM 16 kHz) or webrtc (the
     * dashboard's signaling, Opus over DTLS-SRTP: {@link WebRtcCaller}).
     */
    static String transport() {
        String transport = System.getProperty("bench.transport", "phone");
        if (!List.of("phone", "browser", "webrtc").contains(transport)) {
            throw new IllegalArgumentException("bench.transport: phone, browser or webrtc");
        }
        return transport;
    }

    static boolean browser() {
        return !"phone".equals(transport());
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

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "deploy/target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        List<Integer> levels = new ArrayList<>();
        for (String n : System.getProperty("bench.calls", "1,10,40,100").split(",")) {
            levels.add(Integer.parseInt(n.strip()));
        }
        FakeProviderServer twilio = new FakeProviderServer();
        FakeVoiceProviders voices = new FakeVoiceProviders();
        Map<String, String> env = new HashMap<>();
        twilio.start().forEach((k, v) -> env.put(variable(k), v));
        voices.start().forEach((k, v) -> env.put(variable(k), v));
        FakeVoiceProviders.callerScript = List.of("Where is my order?", "When will it arrive?", "Can I change it?",
                "Tell me about returns.", "Stop, I see.");
        FakeVoiceProviders.REPLY_FOR.putAll(Map.of(
                "Where is my order?", Reply.says("Sure. Your order left our warehouse this morning."),
                "When will it arrive?", Reply.says("Soon. It should arrive on Thursday afternoon."),
                "Can I change it?", Reply.says("Yes. You can change the address until it ships."),
                "Tell me about returns.", Reply.slowly("Okay. Returns are free within thirty days and we refund you"
                        + " in full once the parcel reaches our warehouse in good condition and we checked it."),
                "Stop, I see.", Reply.says("Alright. Anything else?")));
        List<String> report = new ArrayList<>();
        Path store = Files.createTempDirectory("bench-voice-objects");
        env.put("VOICEAGENT_STORAGE_LOCAL_ROOT", store.toString());
        env.put("VOICEAGENT_DRAIN_MAX", "PT2S"); // the fake Twilio reports no call's end: do not wait for them
        env.put("QUARKUS_LOG_LEVEL", "ERROR");
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
        try (BenchApp app = new BenchApp(jar, env)) {
            app.signUp();
            long org = (long) app.queryDouble("SELECT id FROM organizations ORDER BY id DESC LIMIT 1");
            try (Connection c = app.sql(); PreparedStatement ps = c.prepareStatement(
                    "UPDATE organizations SET concurrent_call_limit = 1000 WHERE id = ?")) {
                ps.setLong(1, org);
                ps.executeUpdate();
            }
            app.put("/api/v1/organizations/model-configurations/v2", realtime() ? """
                    {"version": 2, "mode": "byok", "byok": {"mode": "realtime", "realtime": {
                      "realtime": {"provider": "openai_realtime", "api_key": "sk-bench", "model": "gpt-realtime-2"},
                      "llm": {"provider": "openai", "api_key": "sk-bench", "model": "gpt-4.1-mini"}}}}""" : """
                    {"version": 2, "mode": "byok", "byok": {"mode": "pipeline", "pipeline": {
                      "llm": {"provider": "openai", "api_key": "sk-bench", "model": "gpt-4.1-mini"},
                      "stt": {"provider": "deepgram", "api_key": "dg-bench", "model": "nova-3-general"},
                      "tts": %s}}}""".formatted(voice()));
            long workflow = Long.parseLong(BenchApp.field(app.post("/api/v1/workflow/create/definition", WORKFLOW,
                    null), "id"));
            long config = Long.parseLong(BenchApp.field(app.post("/api/v1/organizations/telephony-configs",
                    "{\"name\":\"Twilio\",\"config\":{\"provider\":\"twilio\",\"account_sid\":\"AC"
                            + "0123456789abcdef".repeat(2) + "\",\"auth_token\":\"bench-token\"}}", null), "id"));
            app.post("/api/v1/organizations/telephony-configs/" + config + "/phone-numbers",
                    "{\"address\":\"+14155552671\"}", null);
            report.add("Voice calls (" + switch (transport()) {
                        case "browser" -> "browser, PCM 16 kHz over the plain WebSocket";
                        case "webrtc" -> "browser over WebRTC, Opus over DTLS-SRTP, the dashboard's signaling";
                        default -> "phone, Twilio";
                    }
                    + "; voice " + System.getProperty("bench.tts", "elevenlabs") + "): fakes at fixed delays"
                    + " (STT final 150 ms, first token 250 ms, first audio 100 ms);"
                    + (realtime() ? " (speech-to-speech: silence 500 ms, first audio 250 ms)" : "")
                    + " overhead = voice-to-voice - " + designedMs() + " ms designed");
            for (int calls : levels) {
                report.add(level(app, vertx, workflow, calls));
                System.out.println(report.getLast());
            }
        } finally {
            vertx.close();
            voices.stop();
            twilio.stop();
        }
        String text = String.join(System.lineSeparator(), report);
        System.out.println(text);
        Path out = Path.of(jar.getParent().getParent().toString(), "bench-voice-calls.txt");
        Files.writeString(out, text + System.lineSeparator());
        System.out.println("Written to " + out);
    }

    private static String variable(String property) {
        return property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    private static String level(BenchApp app, Vertx vertx, long workflow, int calls) throws Exception {
        long runsBefore = (long) app.queryDouble("SELECT COALESCE(max(id), 0) FROM workflow_runs");
        if (browser()) {
            return browserLevel(app, vertx, workflow, calls, runsBefore);
        }
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            FakeProviderServer.REQUESTS.clear();
            app.post("/api/v1/telephony/initiate-call", "{\"workflow_id\":" + workflow
                    + ",\"phone_number\":\"+442071838750\"}", null);
            String twiml = FormBody.first(FormBody.parse(FakeProviderServer.REQUESTS.getLast().body()), "Twiml");
            Matcher m = STREAM.matcher(twiml);
            if (!m.find()) {
                throw new IllegalStateException("no stream address in " + twiml);
            }
            urls.add(m.group(1).replace("localhost", "127.0.0.1"));
        }
        CpuTime before = CpuTime.now(app.process.pid());
        CpuTime loadBefore = CpuTime.now(ProcessHandle.current().pid());
        long started = System.currentTimeMillis();
        List<SimulatedCaller> callers = new ArrayList<>();
        for (String url : urls) {
            SimulatedCaller caller = new SimulatedCaller(vertx).connect(url);
            caller.pauses(1_500).says("Where is my order?").pauses(2_200).says("When will it arrive?").pauses(2_200)
                    .says("Can I change it?").pauses(2_200).says("Tell me about returns.").pauses(2_000)
                    .says("Stop, I see.").pauses(1_600);
            callers.add(caller);
            Thread.sleep(Math.max(5, 2_000 / calls)); // calls arrive over about two seconds, not in one instant
        }
        long scriptMs = 1_500 + 3 * 2_200 + 2_000 + 1_600 + lineMs("Where is my order?", "When will it arrive?",
                "Can I change it?", "Tell me about returns.", "Stop, I see.");
        Thread.sleep(scriptMs + 500);
        callers.forEach(SimulatedCaller::hangUp);
        long callMs = System.currentTimeMillis() - started;
        for (SimulatedCaller caller : callers) {
            caller.closed.get(10, TimeUnit.SECONDS);
        }
        CpuTime used = CpuTime.now(app.process.pid()).minus(before);
        CpuTime load = CpuTime.now(ProcessHandle.current().pid()).minus(loadBefore);
        List<Long> overhead = new ArrayList<>();
        List<Long> bargeIn = new ArrayList<>();
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
                }
            }
            if (caller.speech.size() >= 5) { // the clear the last line caused (a greeting may have been cut before)
                long start = caller.speech.get(4)[0];
                caller.clears.stream().filter(at -> at >= start).findFirst().ifPresent(at -> bargeIn.add(at - start));
            }
            caller.close();
        }
        List<Long> pipeline = ownPart(app, runsBefore);
        double callSeconds = calls * (callMs / 1000.0);
        return ("%3d calls: overhead p50 %d ms, p99 %d ms (%d answers; after voice activity's stop p50 %d ms, p99 %d ms);"
                + " barge-in p50 %d ms, p99 %d ms (%d); underruns %d mid-sentence, %d pauses between sentences;")
                .formatted(calls, percentile(overhead, 50), percentile(overhead, 99), overhead.size(),
                        percentile(pipeline, 50), percentile(pipeline, 99),
                        percentile(bargeIn, 50), percentile(bargeIn, 99), bargeIn.size(), underruns, pauses)
                + " app CPU %.1f ms per call-second (%.1f%% of one core per call), PostgreSQL %.0f ms in all;"
                        .formatted(used.applicationMs() / callSeconds, used.applicationMs() / callSeconds / 10,
                                used.postgresMs())
                + " callers and fakes %.0f%% of one core; %d calls off script"
                        .formatted(load.applicationMs() / callMs * 100, odd);
    }

    /**
     * Browser calls: runs created as an editor's test call would (mode smallwebrtc), each a {@link BrowserCaller} on
     * the plain WebSocket route saying the same script in 16 kHz PCM, or a {@link WebRtcCaller} saying it in Opus over
     * WebRTC; also the time from the socket's opening to the greeting's first audio (for WebRTC: ICE and DTLS too).
     */
    private static String browserLevel(BenchApp app, Vertx vertx, long workflow, int calls, long runsBefore)
            throws Exception {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            String run = BenchApp.field(app.post("/api/v1/workflow/" + workflow + "/runs",
                    "{\"mode\":\"smallwebrtc\",\"name\":\"bench\"}", null), "id");
            urls.add(app.base.replace("http://localhost", "ws://127.0.0.1")
                    + ("webrtc".equals(transport()) ? "/api/v1/ws/signaling/" : "/api/v1/ws/voice/") + workflow + "/"
                    + run + "?token=" + app.apiKey);
        }
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
                    .says("Stop, I see.").pauses(1_600);
            callers.add(caller);
            Thread.sleep(Math.max(5, 2_000 / calls));
        }
        long scriptMs = 1_500 + 3 * 2_200 + 2_000 + 1_600;
        for (String line : List.of("Where is my order?", "When will it arrive?", "Can I change it?",
                "Tell me about returns.", "Stop, I see.")) {
            scriptMs += Speech.pcm16k(line).length / 32;
        }
        Thread.sleep(scriptMs + 500);
        // hang up: the plain route's hangup message; over WebRTC, as the dashboard does, by closing the signaling
        callers.forEach(c -> {
            if (c instanceof WebRtcCaller) {
                c.close();
            } else {
                c.send(new io.vertx.core.json.JsonObject().put("type", "hangup"));
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
        List<Long> bargeIn = new ArrayList<>();
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
                }
            }
            if (caller.speech().size() >= 5) {
                long start = caller.speech().get(4)[0];
                caller.clears().stream().filter(at -> at >= start).findFirst().ifPresent(at -> bargeIn.add(at - start));
            }
            caller.close();
        }
        List<Long> pipeline = ownPart(app, runsBefore);
        double callSeconds = calls * (callMs / 1000.0);
        String setup = "";
        if ("webrtc".equals(transport())) { // the offer's answer, the first ICE check, DTLS: p50 / p99 each
            List<Long> answer = new ArrayList<>();
            List<Long> ice = new ArrayList<>();
            List<Long> dtls = new ArrayList<>();
            for (ScriptedCaller c : callers) {
                WebRtcCaller w = (WebRtcCaller) c;
                Long secured = w.connected.getNow(null);
                if (w.answered > 0) {
                    answer.add(w.answered - w.offered);
                }
                if (w.checked > 0) {
                    ice.add(w.checked - w.answered);
                }
                if (secured != null && w.checked > 0) {
                    dtls.add(secured - w.checked);
                }
            }
            setup = " set-up: answer p50 %d / p99 %d ms, ICE check %d / %d ms, DTLS %d / %d ms (%d of %d connected);"
                    .formatted(percentile(answer, 50), percentile(answer, 99), percentile(ice, 50),
                            percentile(ice, 99), percentile(dtls, 50), percentile(dtls, 99), dtls.size(), calls);
        }
        return ("%3d " + transport() + " calls:" + setup + " first audio after the socket opened p50 %d ms, p99 %d ms;"
                + " overhead p50 %d ms,"
                + " p99 %d ms (%d answers; after voice activity's stop p50 %d ms, p99 %d ms); barge-in p50 %d ms,"
                + " p99 %d ms (%d); app CPU %.1f%% of one core per call; callers and fakes %.0f%% of one core;"
                + " %d calls off script")
                .formatted(calls, percentile(firstAudio, 50), percentile(firstAudio, 99), percentile(overhead, 50),
                        percentile(overhead, 99), overhead.size(), percentile(pipeline, 50),
                        percentile(pipeline, 99), percentile(bargeIn, 50), percentile(bargeIn, 99), bargeIn.size(),
                        used.applicationMs() / callSeconds / 10, load.applicationMs() / callMs * 100, odd);
    }

    /**
     * The service's own part after voice activity heard the caller stop, from each answer's latency event: stop to
     * first frame, minus the model's first text, minus its first sentence's first audio, minus the recognizer's 150 ms.
     */
    private static List<Long> ownPart(BenchApp app, long runsBefore) throws Exception {
        List<Long> pipeline = new ArrayList<>();
        Thread.sleep(1_000); // the runs' end is written just after the sockets close
        try (Connection c = app.sql(); PreparedStatement ps = c.prepareStatement("""
                SELECT (e->'payload'->>'user_stop_to_bot_started_ms')::bigint
                       - (e->'payload'->>'llm_first_text_ms')::bigint
                       - (e->'payload'->>'tts_first_audio_ms')::bigint - 150 AS own
                  FROM workflow_runs r, jsonb_array_elements(r.logs->'realtime_feedback_events') e
                 WHERE r.id > ? AND e->>'type' = 'rtf-latency-measured'
                   AND e->'payload'->>'llm_first_text_ms' IS NOT NULL""")) {
            ps.setLong(1, runsBefore);
            try (var rows = ps.executeQuery()) {
                while (rows.next()) {
                    pipeline.add(rows.getLong(1));
                }
            }
        }
        return pipeline;
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
