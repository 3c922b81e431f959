package dev.voiceagent.deploy.bench;

import dev.voiceagent.adapters.simulator.FreeTts;
import dev.voiceagent.adapters.telephony.FormBody;
import dev.voiceagent.deploy.bench.TurnCaller.Transport;
import dev.voiceagent.deploy.support.CallerTimeline;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.ChatAsked;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.deploy.support.Speech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.audio.Pcm16;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turn-taking in realistic audio (issue 40), against the packaged service in its own process with a fresh PostgreSQL
 * and the local fakes of Twilio, Deepgram, the model and ElevenLabs at fixed delays (speech-to-text final 150 ms after
 * Finalize, first model token 250 ms, first speech audio 100 ms), as {@link VoiceCallBenchmark}. The recognizer is
 * ground truth with Deepgram's protocol and timing: each caller registers what it says and when
 * ({@link CallerTimeline}), the fake answers with interim results while the caller speaks and finals on Finalize from
 * the position of the audio it received; noise, echo and babble carry no words.
 *
 * <p>The corpus is made at start, nothing checked in: the callers' speech by FreeTTS (the simulator's voices), noise
 * synthesised here, at the levels the report's header states. Each call ({@link TurnCaller}) is one trial of every
 * case, in order: a backchannel ("Uh-huh.", "Okay.", "Yeah.") said 0.6-1.2 s into the agent's long answer; a noise
 * burst (150-300 ms, at the caller's speech level) at the same point of the next; a question asked with the caller's
 * speakerphone on (the agent's audio returned 25 dB down, 150 ms late) and its long answer; a hesitation ("I would
 * like to", a 600-900 ms pause, "book an appointment for Tuesday."); a true barge-in ("Wait, stop, I have a
 * question.") 1 s into a long answer; last (a turn the noise delays would shift the cases after it), two questions
 * under six-voice babble 12 dB under the caller (going on between them) and two under brown (street or car) noise 12 dB
 * under. Calls run per transport (phone: Twilio, μ-law 8 kHz; browser:
 * the plain WebSocket, PCM 16 kHz) and per turn start strategy (the workflow's turn_start_strategy: default, min_words
 * with 3 words, provisional_vad with a 1.0 s pause; a strategy the service refuses to save is reported as such), each
 * call with its own workflow and keys (model_overrides) so the fakes tell them apart.
 *
 * <p>Knobs: -Dbench.calls (levels of concurrent calls, default 10,40: each level runs every call of every column, that
 * many at once), -Dbench.transport (phone, browser or both, default both), -Dbench.trials (calls per strategy and
 * transport, default 10), -Dbench.strategies (default default,min_words,provisional_vad), -Dbench.seed. Writes
 * deploy/target/bench-turn-taking.txt.
 */
public final class TurnTakingBenchmark {

    private static final Pattern STREAM = Pattern.compile("<Stream url=\"([^\"]+)\"");
    /** The fakes' fixed delays taken off end-of-turn latency: the recognizer's final, the first token, the first
     * sentence's end (its second chunk), the voice's first audio. */
    static final long FAKE_DELAYS_MS = 150 + 250 + 20 + 100;
    static final double BABBLE_DB = 12;
    static final double STREET_DB = 12;
    /** The fake voice's audio: 60 ms a word. */
    static final int MS_PER_WORD = 60;

    private static final String WORKFLOW = """
            {"name": "Turn bench", "workflow_definition": {"nodes": [
              {"id": "start", "type": "startCall", "position": {"x": 0, "y": 0}, "data": {"name": "Start",
               "prompt": "Help callers.", "greeting": "Hello, this is Acme. How can I help?", "greeting_type": "text",
               "allow_interrupt": true}},
              {"id": "end", "type": "endCall", "position": {"x": 0, "y": 200}, "data": {"name": "End",
               "prompt": "Say goodbye."}}],
             "edges": [{"id": "e1", "source": "start", "target": "end", "data": {"label": "Done",
               "condition": "The caller is done"}}]}}""";

    static final String Q_BACKCHANNEL = "Where is my order?";
    static final String Q_NOISE = "When will it arrive?";
    static final String Q_ECHO = "Can I change the address?";
    static final String H_FRAGMENT = "I would like to";
    static final String H_REST = "book an appointment for Tuesday.";
    static final String Q_BARGE = "Tell me about returns.";
    static final String BARGE = "Wait, stop, I have a question.";
    static final List<String> BABBLE_QUESTIONS = List.of("What is the return policy?", "Do you ship to Canada?");
    static final List<String> STREET_QUESTIONS = List.of("Can I pay by card?", "Is there a store near me?");
    static final List<String> BACKCHANNELS = List.of("Uh-huh.", "Okay.", "Yeah.");
    /** The babble's six voices: other people's sentences, FreeTTS's two voices. */
    static final List<String> BABBLE = List.of("The meeting moved to Thursday at noon.",
            "She bought three tickets for the late show.", "Please pass the bread and the butter.",
            "We drove along the coast for hours.", "The printer on the second floor is broken again.",
            "My brother plays the piano every evening.");

    private static final String LONG = " We checked it with the carrier this morning and everything looks fine."
            + " You will get a text message with a tracking link as soon as the driver is on the way."
            + " If you are not at home the driver leaves it with a neighbour or at the nearest pickup point.";
    static final Map<String, String> ANSWERS = new LinkedHashMap<>();

    static {
        ANSWERS.put(Q_BACKCHANNEL, "Sure. Your order left our warehouse yesterday evening." + LONG);
        ANSWERS.put(Q_NOISE, "Soon. It should arrive on Thursday afternoon." + LONG);
        ANSWERS.put(Q_ECHO, "Yes. You can change the address until the parcel ships." + LONG);
        ANSWERS.put(H_FRAGMENT + " " + H_REST, "Tuesday works. I booked you for ten in the morning.");
        ANSWERS.put(H_REST, "Tuesday works. I booked you for ten in the morning.");
        ANSWERS.put(H_FRAGMENT, "Sure. What would you like to do?");
        ANSWERS.put(Q_BARGE, "Okay. Returns are free within thirty days." + LONG);
        ANSWERS.put(BARGE, "Sure. What is your question?");
        ANSWERS.put(BABBLE_QUESTIONS.get(0), "You can return anything within thirty days.");
        ANSWERS.put(BABBLE_QUESTIONS.get(1), "Yes. We ship to Canada in five days.");
        ANSWERS.put(STREET_QUESTIONS.get(0), "Yes. We take every major card.");
        ANSWERS.put(STREET_QUESTIONS.get(1), "Yes. There is one on Main Street.");
    }

    /** A turn start strategy: its name and the workflow configuration that selects it. */
    record Strategy(String name, String settings) {
    }

    static final List<Strategy> STRATEGIES = List.of(
            new Strategy("default", "\"turn_start_strategy\": \"default\""),
            new Strategy("min_words", "\"turn_start_strategy\": \"min_words\", \"turn_start_min_words\": 3"),
            new Strategy("provisional_vad", "\"turn_start_strategy\": \"provisional_vad\","
                    + " \"provisional_vad_pause_secs\": 1.0"));

    /** One column of the report: a strategy on a transport. */
    record Column(Strategy strategy, Transport transport) {
        String label() {
            return strategy.name() + " " + (transport == Transport.PHONE ? "phone" : "browser");
        }
    }

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "deploy/target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        List<Integer> levels = new ArrayList<>();
        for (String n : property("bench.calls", "10,40").split(",")) {
            levels.add(Integer.parseInt(n.strip()));
        }
        String transportName = property("bench.transport", "both");
        List<Transport> transports = switch (transportName) {
            case "phone" -> List.of(Transport.PHONE);
            case "browser" -> List.of(Transport.BROWSER);
            case "both" -> List.of(Transport.PHONE, Transport.BROWSER);
            default -> throw new IllegalArgumentException("bench.transport: phone, browser or both");
        };
        int trials = Integer.parseInt(property("bench.trials", "10"));
        List<String> wanted = List.of(property("bench.strategies", "default,min_words,provisional_vad").split(","));
        long seed = Long.parseLong(property("bench.seed", "20261128"));

        long made = System.currentTimeMillis();
        Map<Transport, Corpus> corpora = new HashMap<>();
        for (Transport t : transports) {
            corpora.put(t, new Corpus(t, new Random(seed)));
        }
        made = System.currentTimeMillis() - made;

        FakeProviderServer twilio = new FakeProviderServer();
        FakeVoiceProviders voices = new FakeVoiceProviders();
        Map<String, String> env = new HashMap<>();
        twilio.start().forEach((k, v) -> env.put(variable(k), v));
        voices.start().forEach((k, v) -> env.put(variable(k), v));
        ANSWERS.forEach((line, answer) -> FakeVoiceProviders.REPLY_FOR.put(line, Reply.says(answer)));
        FakeVoiceProviders.replyToLastLine = true; // lines the service joins into one turn: the last one is answered
        Path store = Files.createTempDirectory("bench-turn-objects");
        env.put("VOICEAGENT_STORAGE_LOCAL_ROOT", store.toString());
        env.put("VOICEAGENT_DRAIN_MAX", "PT2S");
        env.put("QUARKUS_LOG_LEVEL", "ERROR");
        List<String> report = new ArrayList<>();
        callsFile = Path.of(jar.getParent().getParent().toString(), "bench-turn-taking-calls.txt");
        Files.deleteIfExists(callsFile);
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
        try (BenchApp app = new BenchApp(jar, env)) {
            app.signUp();
            long org = (long) app.queryDouble("SELECT id FROM organizations ORDER BY id DESC LIMIT 1");
            try (Connection c = app.sql(); PreparedStatement ps = c.prepareStatement(
                    "UPDATE organizations SET concurrent_call_limit = 1000 WHERE id = ?")) {
                ps.setLong(1, org);
                ps.executeUpdate();
            }
            app.put("/api/v1/organizations/model-configurations/v2", """
                    {"version": 2, "mode": "byok", "byok": {"mode": "pipeline", "pipeline": {
                      "llm": {"provider": "openai", "api_key": "sk-bench", "model": "gpt-4.1-mini"},
                      "stt": {"provider": "deepgram", "api_key": "dg-bench", "model": "nova-3-general"},
                      "tts": {"provider": "elevenlabs", "api_key": "el-bench", "voice": "v1"}}}}""");
            long config = Long.parseLong(BenchApp.field(app.post("/api/v1/organizations/telephony-configs",
                    "{\"name\":\"Twilio\",\"config\":{\"provider\":\"twilio\",\"account_sid\":\"AC"
                            + "0123456789abcdef".repeat(2) + "\",\"auth_token\":\"bench-token\"}}", null), "id"));
            app.post("/api/v1/organizations/telephony-configs/" + config + "/phone-numbers",
                    "{\"address\":\"+14155552671\"}", null);
            // which strategies the service takes: one refused when saved is reported, not run
            List<Strategy> strategies = new ArrayList<>();
            List<String> refused = new ArrayList<>();
            long probe = Long.parseLong(BenchApp.field(app.post("/api/v1/workflow/create/definition",
                    WORKFLOW.replace("Turn bench", "Turn bench probe"), null), "id"));
            for (Strategy s : STRATEGIES) {
                if (!wanted.contains(s.name())) {
                    continue;
                }
                try {
                    app.put("/api/v1/workflow/" + probe, "{\"workflow_configurations\": {" + s.settings() + "}}");
                    strategies.add(s);
                } catch (IllegalStateException e) {
                    refused.add(s.name() + " refused when saved (" + e.getMessage().replaceAll("\\s+", " ") + ")");
                }
            }
            List<Column> columns = new ArrayList<>();
            for (Strategy s : strategies) {
                for (Transport t : transports) {
                    columns.add(new Column(s, t));
                }
            }
            report.add("Turn-taking (issue 40): " + trials + " calls per strategy and transport, each one trial of"
                    + " every case; fakes at fixed delays (STT final 150 ms after Finalize, first token 250 ms,"
                    + " first audio 100 ms, 60 ms of audio a word); corpus made in " + made + " ms.");
            for (Transport t : transports) {
                report.add("  " + corpora.get(t).levels());
            }
            report.add("  echo: the agent's audio as the caller played it, " + (int) TurnCaller.ECHO_DB + " dB down, "
                    + TurnCaller.ECHO_MS + " ms late (from the question before the echo case's answer to its end);"
                    + " end-of-turn latency = first agent audio - the real end of the caller's speech - "
                    + FAKE_DELAYS_MS + " ms of fake delays (final 150 + first token 250 + first sentence's end 20"
                    + " + first audio 100); a false interruption: the model asked with a new user turn while the"
                    + " answer went on, or a clear with no more audio of the answer within 1.5 s, or less than 90 % of"
                    + " the answer's audio reached the caller.");
            if (!refused.isEmpty()) {
                report.add("  not run: " + String.join("; ", refused));
            }
            for (int level : levels) {
                List<String> table = level(app, vertx, corpora, columns, level, trials, seed);
                report.addAll(table);
                table.forEach(System.out::println);
            }
        } finally {
            vertx.close();
            voices.stop();
            twilio.stop();
        }
        String text = String.join(System.lineSeparator(), report);
        System.out.println(text);
        Path out = Path.of(jar.getParent().getParent().toString(), "bench-turn-taking.txt");
        Files.writeString(out, text + System.lineSeparator());
        System.out.println("Written to " + out);
    }

    static String property(String name, String fallback) {
        String value = System.getProperty(name, "");
        return value.isBlank() ? fallback : value.strip();
    }

    private static String variable(String property) {
        return property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** One call of a level: its column, trial, tag (its keys), caller, timeline. */
    static final class Call {
        final Column column;
        final int trial;
        final String tag;
        final CallerTimeline timeline = new CallerTimeline();
        String url;
        TurnCaller caller;
        double cpuShare;

        Call(Column column, int trial, String tag) {
            this.column = column;
            this.trial = trial;
            this.tag = tag;
        }
    }

    private static List<String> level(BenchApp app, Vertx vertx, Map<Transport, Corpus> corpora,
            List<Column> columns, int level, int trials, long seed) throws Exception {
        List<Call> all = new ArrayList<>();
        for (int trial = 0; trial < trials; trial++) { // interleaved: each wave holds every column as far as it can
            for (Column column : columns) {
                all.add(new Call(column, trial, "L" + level + "-" + column.strategy().name().charAt(0)
                        + column.transport().name().charAt(0) + "-" + trial));
            }
        }
        List<String> notes = new ArrayList<>();
        long started = System.currentTimeMillis();
        for (int from = 0; from < all.size(); from += level) {
            List<Call> wave = all.subList(from, Math.min(all.size(), from + level));
            wave(app, vertx, corpora, wave, new Random(seed + from), notes);
        }
        long wallMs = System.currentTimeMillis() - started;
        List<String> out = new ArrayList<>();
        out.add("");
        out.add("%d concurrent calls (%d calls in %d waves, %.0f s):".formatted(level, all.size(),
                (all.size() + level - 1) / level, wallMs / 1000.0));
        out.addAll(table(columns, all));
        for (Transport t : corpora.keySet()) {
            double agent = all.stream().filter(c -> c.column.transport() == t && c.caller != null)
                    .mapToDouble(c -> c.caller.agentDbfs()).filter(d -> !Double.isNaN(d)).average().orElse(Double.NaN);
            out.add("  %s: the agent's audio as received %.1f dBFS (the fake voice's buzz), so its echo %.1f dBFS"
                    .formatted(t == Transport.PHONE ? "phone" : "browser", agent, agent - TurnCaller.ECHO_DB));
        }
        out.addAll(notes);
        calls(level, all);
        return out;
    }

    /** One wave of concurrent calls: set up, run their programs, hang up, measure. */
    private static void wave(BenchApp app, Vertx vertx, Map<Transport, Corpus> corpora, List<Call> wave,
            Random random, List<String> notes) throws Exception {
        for (Call call : wave) {
            long workflow = Long.parseLong(BenchApp.field(app.post("/api/v1/workflow/create/definition",
                    WORKFLOW.replace("Turn bench", "Turn bench " + call.tag), null), "id"));
            app.put("/api/v1/workflow/" + workflow, ("{\"workflow_configurations\": {%s, \"model_overrides\": {"
                    + "\"llm\": {\"api_key\": \"sk-%s\"}, \"stt\": {\"api_key\": \"dg-%s\"},"
                    + " \"tts\": {\"api_key\": \"el-%s\"}}}}").formatted(call.column.strategy().settings(), call.tag,
                    call.tag, call.tag));
            FakeVoiceProviders.TIMELINES.put("dg-" + call.tag, call.timeline);
            if (call.column.transport() == Transport.PHONE) {
                FakeProviderServer.REQUESTS.clear();
                app.post("/api/v1/telephony/initiate-call", "{\"workflow_id\":" + workflow
                        + ",\"phone_number\":\"+442071838750\"}", null);
                String twiml = FormBody.first(FormBody.parse(FakeProviderServer.REQUESTS.getLast().body()), "Twiml");
                Matcher m = STREAM.matcher(twiml);
                if (!m.find()) {
                    throw new IllegalStateException("no stream address in " + twiml);
                }
                call.url = m.group(1).replace("localhost", "127.0.0.1");
            } else {
                String run = BenchApp.field(app.post("/api/v1/workflow/" + workflow + "/runs",
                        "{\"mode\":\"smallwebrtc\",\"name\":\"bench\"}", null), "id");
                call.url = app.base.replace("http://localhost", "ws://127.0.0.1") + "/api/v1/ws/voice/" + workflow
                        + "/" + run + "?token=" + app.apiKey;
            }
        }
        CpuTime before = CpuTime.now(app.process.pid());
        long started = System.currentTimeMillis();
        for (Call call : wave) {
            Corpus corpus = corpora.get(call.column.transport());
            call.caller = program(new TurnCaller(vertx, call.column.transport(), call.timeline), corpus, call.trial,
                    random);
            call.caller.connect(call.url);
            Thread.sleep(Math.max(5, 2_000 / wave.size())); // calls arrive over about two seconds
        }
        long deadline = System.currentTimeMillis() + 240_000;
        while (System.currentTimeMillis() < deadline && !wave.stream().allMatch(c -> c.caller.finished())) {
            Thread.sleep(100);
        }
        long callMs = System.currentTimeMillis() - started;
        int stuck = 0;
        for (Call call : wave) {
            if (!call.caller.finished()) {
                stuck++;
                call.caller.hangUp();
            }
        }
        if (stuck > 0) {
            notes.add("  " + stuck + " calls had not finished their script after 240 s (hung up then)");
        }
        int unclosed = 0;
        for (Call call : wave) {
            try {
                call.caller.closed.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                unclosed++;
            }
        }
        if (unclosed > 0) {
            notes.add("  " + unclosed + " calls' sockets were not closed by the service 10 s after the hang-up");
        }
        CpuTime used = CpuTime.now(app.process.pid()).minus(before);
        double share = used.applicationMs() / (wave.size() * (double) callMs) * 100;
        for (Call call : wave) {
            call.cpuShare = share;
            call.caller.close();
        }
    }

    /** The call's script: one trial of every case (see the class's comment). */
    private static TurnCaller program(TurnCaller c, Corpus corpus, int trial, Random random) {
        String backchannel = BACKCHANNELS.get(trial % BACKCHANNELS.size());
        int hesitation = 600 + 100 * (trial % 4); // 600, 700, 800, 900 ms
        c.pauses(300).awaitsAnswer("greeting", 0, 10_000).awaitsQuiet("greeting.done", 1_000, 10_000);
        c.says("q1", corpus.speech(Q_BACKCHANNEL), Q_BACKCHANNEL)
                .awaitsAnswer("q1", 600 + random.nextInt(600), 8_000)
                .says("bc", corpus.speech(backchannel), backchannel)
                .awaitsQuiet("q1.done", 1_500, 15_000);
        c.says("q2", corpus.speech(Q_NOISE), Q_NOISE)
                .awaitsAnswer("q2", 600 + random.nextInt(600), 8_000)
                .sounds("nb", corpus.burst(random))
                .awaitsQuiet("q2.done", 1_500, 15_000);
        c.echo(true).says("q3", corpus.speech(Q_ECHO), Q_ECHO)
                .awaitsAnswer("q3", 0, 8_000)
                .awaitsQuiet("q3.done", 1_500, 15_000).echo(false);
        c.says("h1", corpus.speech(H_FRAGMENT), H_FRAGMENT).pauses(hesitation)
                .says("h2", corpus.speech(H_REST), H_REST)
                .awaitsAnswer("h2", 0, 8_000)
                .awaitsQuiet("h.done", 1_500, 12_000);
        c.says("q9", corpus.speech(Q_BARGE), Q_BARGE)
                .awaitsAnswer("q9", 1_000, 8_000)
                .says("b", corpus.speech(BARGE), BARGE)
                .awaitsAnswer("b", 0, 8_000)
                .awaitsQuiet("b.done", 1_200, 10_000);
        c.background(corpus.babble).pauses(1_000);
        for (int i = 0; i < BABBLE_QUESTIONS.size(); i++) {
            c.says("bb" + i, corpus.speech(BABBLE_QUESTIONS.get(i)), BABBLE_QUESTIONS.get(i))
                    .awaitsAnswer("bb" + i, 0, 8_000)
                    .awaitsQuiet("bb" + i + ".done", 1_200, 10_000);
        }
        c.background(corpus.street).pauses(1_000);
        for (int i = 0; i < STREET_QUESTIONS.size(); i++) {
            c.says("st" + i, corpus.speech(STREET_QUESTIONS.get(i)), STREET_QUESTIONS.get(i))
                    .awaitsAnswer("st" + i, 0, 8_000)
                    .awaitsQuiet("st" + i + ".done", 1_200, 10_000);
        }
        c.background(null).pauses(1_000).hangsUp();
        return c;
    }

    /**
     * What each call did, for looking into a figure: its moments, clears, model requests and the agent's audio as
     * bursts (ms from the call's first moment), appended to deploy/target/bench-turn-taking-calls.txt.
     */
    static Path callsFile;

    private static void calls(int level, List<Call> all) throws Exception {
        StringBuilder text = new StringBuilder();
        for (Call call : all) {
            TurnCaller c = call.caller;
            if (c == null) {
                continue;
            }
            synchronized (c) {
                long zero = c.moments.values().stream().mapToLong(Long::longValue).min().orElse(0);
                text.append("level ").append(level).append(' ').append(call.column.label()).append(" trial ")
                        .append(call.trial).append(" (").append(call.tag).append(")\n  moments:");
                c.moments.entrySet().stream().sorted(Map.Entry.comparingByValue())
                        .forEach(e -> text.append(' ').append(e.getKey()).append('=').append(e.getValue() - zero));
                text.append("\n  clears:");
                c.clears.forEach(x -> text.append(' ').append(x - zero));
                text.append("\n  model asked:");
                FakeVoiceProviders.CHATS.getOrDefault("sk-" + call.tag, List.of()).forEach(a -> text.append(' ')
                        .append(a.at() - zero).append(" '").append(a.lastUser()).append('\''));
                text.append("\n  recognizer:");
                FakeVoiceProviders.STT_EVENTS.getOrDefault("dg-" + call.tag, List.of()).forEach(e -> {
                    int space = e.indexOf(' ');
                    text.append(' ').append(Long.parseLong(e.substring(0, space)) - zero).append(' ')
                            .append(e.substring(space + 1)).append(';');
                });
                text.append("\n  agent audio (from-to):");
                long from = -1;
                long to = -1;
                for (long[] a : c.agentAudio) {
                    if (from >= 0 && a[0] > to + 200) {
                        text.append(' ').append(from - zero).append('-').append(to - zero);
                        from = -1;
                    }
                    from = from < 0 ? a[0] : from;
                    to = Math.max(to, a[0]);
                }
                if (from >= 0) {
                    text.append(' ').append(from - zero).append('-').append(to - zero);
                }
                text.append("\n  closed: ").append(c.closed.getNow("not closed")).append("; violations ")
                        .append(c.violations.size()).append("\n");
            }
        }
        Files.writeString(callsFile, text.toString(), java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }

    // ---- the measures ----

    /** What one column's calls showed. */
    static final class Tally {
        int calls;
        int[] backchannel = new int[3]; // false, held then resumed, trials
        int[] noise = new int[3];
        int[] echo = new int[3];
        int hesitations;
        int cutOffs;
        int fragmentAsked;
        int babbleAsked;
        int babbleAnswered;
        int streetAsked;
        int streetAnswered;
        final List<Long> endOfTurn = new ArrayList<>();
        final List<Long> hesitationEnd = new ArrayList<>();
        final List<Long> bargeIn = new ArrayList<>();
        int bargeTrials;
        double cpu;
        int unscripted;
    }

    private static List<String> table(List<Column> columns, List<Call> calls) {
        Map<Column, Tally> tallies = new LinkedHashMap<>();
        columns.forEach(c -> tallies.put(c, new Tally()));
        for (Call call : calls) {
            measure(call, tallies.get(call.column));
        }
        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("case"));
        columns.forEach(c -> header.add(c.label()));
        rows.add(header.toArray(String[]::new));
        rows.add(row(columns, tallies, "false interruption: backchannel (held, resumed)", t -> rate(t.backchannel)));
        rows.add(row(columns, tallies, "false interruption: noise burst (held, resumed)", t -> rate(t.noise)));
        rows.add(row(columns, tallies, "false interruption: speakerphone echo (held, resumed)", t -> rate(t.echo)));
        rows.add(row(columns, tallies, "hesitation: agent spoke in the pause", t -> frac(t.cutOffs, t.hesitations)));
        rows.add(row(columns, tallies, "hesitation: model asked with the fragment", t -> frac(t.fragmentAsked,
                t.hesitations)));
        rows.add(row(columns, tallies, "babble 12 dB: questions answered", t -> frac(t.babbleAnswered,
                t.babbleAsked)));
        rows.add(row(columns, tallies, "street noise 12 dB: questions answered", t -> frac(t.streetAnswered,
                t.streetAsked)));
        rows.add(row(columns, tallies, "end-of-turn latency p50 / p90 (ms)", t -> percentile(t.endOfTurn, 50) + " / "
                + percentile(t.endOfTurn, 90) + " (" + t.endOfTurn.size() + ")"));
        rows.add(row(columns, tallies, "  after a hesitation p50 / p90 (ms)", t -> percentile(t.hesitationEnd, 50)
                + " / " + percentile(t.hesitationEnd, 90) + " (" + t.hesitationEnd.size() + ")"));
        rows.add(row(columns, tallies, "true barge-in to clear p50 / p90 (ms)", t -> percentile(t.bargeIn, 50) + " / "
                + percentile(t.bargeIn, 90) + " (" + t.bargeIn.size() + " of " + t.bargeTrials + ")"));
        rows.add(row(columns, tallies, "service CPU per call (% of a core)", t -> "%.1f".formatted(t.cpu / Math.max(1,
                t.calls))));
        rows.add(row(columns, tallies, "model asked with joined or unscripted lines", t -> String.valueOf(t.unscripted)));
        int[] widths = new int[header.size()];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        List<String> out = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            StringBuilder line = new StringBuilder("| ");
            for (int i = 0; i < widths.length; i++) {
                line.append(String.format("%-" + widths[i] + "s", rows.get(r)[i])).append(" | ");
            }
            out.add(line.toString().stripTrailing());
            if (r == 0) {
                StringBuilder rule = new StringBuilder("|");
                for (int w : widths) {
                    rule.append("-".repeat(w + 2)).append('|');
                }
                out.add(rule.toString());
            }
        }
        // goals
        for (Column column : columns) {
            Tally t = tallies.get(column);
            List<String> goals = new ArrayList<>();
            goals.add(goal("backchannels <= 5 %", share(t.backchannel[0], t.backchannel[2]) <= 5));
            goals.add(goal("noise bursts <= 5 %", share(t.noise[0], t.noise[2]) <= 5));
            goals.add(goal("echo <= 5 %", share(t.echo[0], t.echo[2]) <= 5));
            goals.add(goal("hesitation cut-off <= 10 %", share(t.cutOffs, t.hesitations) <= 10));
            goals.add(goal("fragment asked <= 1 in 10", share(t.fragmentAsked, t.hesitations) <= 10));
            goals.add(goal("babble all answered", t.babbleAsked > 0 && t.babbleAnswered == t.babbleAsked));
            long p50 = percentile(t.endOfTurn, 50);
            goals.add(goal("end of turn p50 <= 600 ms", p50 >= 0 && p50 <= 600));
            long p90 = percentile(t.bargeIn, 90);
            goals.add(goal("barge-in p90 <= 300 ms", p90 >= 0 && p90 <= 300 && t.bargeIn.size() == t.bargeTrials));
            out.add("  goals, " + column.label() + ": " + String.join(", ", goals));
        }
        return out;
    }

    private static String goal(String name, boolean met) {
        return name + (met ? " met" : " MISSED");
    }

    private static double share(int n, int of) {
        return of == 0 ? 100 : 100.0 * n / of;
    }

    private static String rate(int[] t) {
        return t[2] == 0 ? "no trial" : "%d/%d %.0f %% (%d)".formatted(t[0], t[2], share(t[0], t[2]), t[1]);
    }

    private static String frac(int n, int of) {
        return of == 0 ? "no trial" : "%d/%d %.0f %%".formatted(n, of, share(n, of));
    }

    private static String[] row(List<Column> columns, Map<Column, Tally> tallies, String name,
            java.util.function.Function<Tally, String> cell) {
        List<String> row = new ArrayList<>(List.of(name));
        columns.forEach(c -> row.add(cell.apply(tallies.get(c))));
        return row.toArray(String[]::new);
    }

    private static void measure(Call call, Tally t) {
        TurnCaller c = call.caller;
        Map<String, Long> at = c.moments;
        List<ChatAsked> chats = FakeVoiceProviders.CHATS.getOrDefault("sk-" + call.tag, List.of());
        t.calls++;
        t.cpu += call.cpuShare;
        t.unscripted += (int) chats.stream().filter(a -> !ANSWERS.containsKey(a.lastUser().strip())).count();
        interruption(c, chats, "q1", Q_BACKCHANNEL, at.get("bc.on"), t.backchannel);
        interruption(c, chats, "q2", Q_NOISE, at.get("nb.on"), t.noise);
        interruption(c, chats, "q3", Q_ECHO, at.get("q3.answer"), t.echo);
        for (String q : List.of("q1", "q2", "q3", "q9")) {
            if (at.containsKey(q + ".answer") && at.containsKey(q + ".off")) {
                t.endOfTurn.add(at.get(q + ".answer") - at.get(q + ".off") - FAKE_DELAYS_MS);
            }
        }
        Long fragmentEnd = at.get("h1.off");
        Long restEnd = at.get("h2.off");
        if (fragmentEnd != null && restEnd != null) {
            t.hesitations++;
            boolean spoke;
            synchronized (c) {
                spoke = c.agentAudio.stream().anyMatch(a -> a[0] >= fragmentEnd && a[0] < restEnd);
            }
            t.cutOffs += spoke ? 1 : 0;
            t.fragmentAsked += chats.stream().anyMatch(a -> a.at() >= fragmentEnd
                    && normal(a.lastUser()).equals(normal(H_FRAGMENT))) ? 1 : 0;
            if (at.containsKey("h2.answer")) {
                t.hesitationEnd.add(at.get("h2.answer") - restEnd - FAKE_DELAYS_MS);
            }
        }
        for (int i = 0; i < BABBLE_QUESTIONS.size(); i++) {
            if (at.containsKey("bb" + i + ".off")) {
                t.babbleAsked++;
                t.babbleAnswered += at.containsKey("bb" + i + ".answer") ? 1 : 0;
            }
            if (at.containsKey("st" + i + ".off")) {
                t.streetAsked++;
                t.streetAnswered += at.containsKey("st" + i + ".answer") ? 1 : 0;
            }
        }
        Long onset = at.get("b.on");
        if (onset != null) {
            t.bargeTrials++;
            synchronized (c) {
                c.clears.stream().filter(x -> x >= onset).findFirst().ifPresent(x -> t.bargeIn.add(x - onset));
            }
        }
    }

    /**
     * Whether the answer to {@code question} went on past what happened at {@code from} (a backchannel's or burst's
     * onset; the answer's start for echo): tally[0] false interruptions, [1] held then resumed, [2] trials. A trial
     * whose answer never came is not counted.
     */
    private static void interruption(TurnCaller c, List<ChatAsked> chats, String q, String question, Long from,
            int[] tally) {
        Long answer = c.moments.get(q + ".answer");
        Long done = c.moments.get(q + ".done");
        if (answer == null || from == null || done == null) {
            return;
        }
        tally[2]++;
        boolean askedAgain = chats.stream().anyMatch(a -> a.at() >= from && a.at() < done
                && !normal(a.lastUser()).equals(normal(question)));
        boolean stopped = false;
        boolean held = false;
        long heardMs = 0;
        synchronized (c) {
            for (long x : c.clears) {
                if (x >= from && x < done) {
                    boolean resumed = c.agentAudio.stream().anyMatch(a -> a[0] > x && a[0] <= x + 1_500);
                    stopped |= !resumed;
                    held |= resumed;
                }
            }
            for (long[] a : c.agentAudio) {
                if (a[0] >= answer && a[0] < done) {
                    heardMs += a[1];
                }
            }
        }
        long fullMs = (long) ANSWERS.get(question).split(" ").length * MS_PER_WORD;
        boolean cutShort = heardMs < fullMs * 0.9;
        if (askedAgain || stopped || cutShort) {
            tally[0]++;
        } else if (held) {
            tally[1]++;
        }
    }

    private static String normal(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^a-z ]", "").strip();
    }

    private static long percentile(List<Long> values, int p) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    // ---- the corpus ----

    /** The audio of one transport's calls, at its rate: speech, bursts, babble and street noise, and their levels. */
    static final class Corpus {
        final Transport transport;
        final int rate;
        final double speechDbfs;
        final short[] babble;
        final short[] street;
        private final Map<String, short[]> said = new HashMap<>();
        private final Random random;

        Corpus(Transport transport, Random random) {
            this.transport = transport;
            this.rate = transport == Transport.PHONE ? 8_000 : 16_000;
            this.random = random;
            List<String> lines = new ArrayList<>(ANSWERS.keySet());
            lines.addAll(BACKCHANNELS);
            double squares = 0;
            long samples = 0;
            for (String line : lines) {
                if (line.contains(H_FRAGMENT + " ")) {
                    continue;
                }
                short[] audio = speech(line);
                for (int at = 0; at + rate / 50 <= audio.length; at += rate / 50) {
                    short[] frame = java.util.Arrays.copyOfRange(audio, at, at + rate / 50);
                    if (Loudness.dbfs(frame) > SimulatedCaller.VOICED_DBFS) {
                        for (short s : frame) {
                            squares += (double) s * s;
                        }
                        samples += frame.length;
                    }
                }
            }
            speechDbfs = dbfs(Math.sqrt(squares / samples));
            babble = scaled(babble(), speechDbfs - BABBLE_DB);
            street = scaled(brown(rate * 20), speechDbfs - STREET_DB);
        }

        /** The caller's line (FreeTTS's kevin16), at this rate. */
        short[] speech(String line) {
            return said.computeIfAbsent(line, l -> transport == Transport.PHONE ? G711.decode(Speech.mulaw(l))
                    : Pcm16.samples(Speech.pcm16k(l)));
        }

        /** A cough or click: 150-300 ms of white noise with a 10 ms attack and a decay, its RMS the speech's. */
        short[] burst(Random r) {
            int n = (150 + r.nextInt(151)) * rate / 1000;
            double[] noise = new double[n];
            for (int i = 0; i < n; i++) {
                double envelope = Math.min(1, i / (0.01 * rate)) * Math.exp(-3.0 * i / n);
                noise[i] = r.nextGaussian() * envelope;
            }
            short[] burst = scaled(noise, speechDbfs);
            short[] padded = new short[(n / (rate / 50) + 1) * (rate / 50)];
            System.arraycopy(burst, 0, padded, 0, n);
            return padded;
        }

        /** Six other voices, each saying its sentence again and again with short gaps, from its own offset. */
        private double[] babble() {
            double[] sum = new double[rate * 20];
            for (int v = 0; v < BABBLE.size(); v++) {
                short[] voice = other(BABBLE.get(v), v % 2 == 0 ? FreeTts.Speaker.CALLEE : FreeTts.Speaker.AGENT);
                int at = random.nextInt(rate);
                while (at < sum.length) {
                    for (int i = 0; i < voice.length && at + i < sum.length; i++) {
                        sum[at + i] += voice[i];
                    }
                    at += voice.length + (100 + random.nextInt(300)) * rate / 1000;
                }
            }
            return sum;
        }

        private short[] other(String text, FreeTts.Speaker speaker) {
            try {
                byte[] audio = new FreeTts().audio(speaker, text, transport == Transport.PHONE ? AudioFormat.MULAW_8K
                        : AudioFormat.PCM_16K).get(60, TimeUnit.SECONDS);
                return transport == Transport.PHONE ? G711.decode(audio) : Pcm16.samples(audio);
            } catch (Exception e) {
                throw new IllegalStateException("FreeTTS could not say: " + text, e);
            }
        }

        /** Brown noise (integrated white noise, leaky so it stays centred): a street's or a car's rumble. */
        private double[] brown(int n) {
            double[] noise = new double[n];
            double x = 0;
            for (int i = 0; i < n; i++) {
                x = 0.995 * x + random.nextGaussian();
                noise[i] = x;
            }
            return noise;
        }

        private static short[] scaled(double[] signal, double targetDbfs) {
            double squares = 0;
            for (double s : signal) {
                squares += s * s;
            }
            double rms = Math.sqrt(squares / signal.length);
            double gain = 32768.0 * Math.pow(10, targetDbfs / 20) / rms;
            short[] out = new short[signal.length];
            for (int i = 0; i < signal.length; i++) {
                out[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(signal[i] * gain)));
            }
            return out;
        }

        private static double dbfs(double rms) {
            return 20 * Math.log10(rms / 32768.0);
        }

        String levels() {
            return "%s (%s): caller speech %.1f dBFS (RMS of its voiced frames); noise bursts 150-300 ms at %.1f dBFS;"
                    .formatted(transport == Transport.PHONE ? "phone" : "browser", transport == Transport.PHONE
                            ? "Twilio, mu-law 8 kHz" : "plain WebSocket, PCM 16 kHz", speechDbfs, speechDbfs)
                    + " babble (6 FreeTTS voices) %.1f dBFS (%.0f dB under); brown street noise %.1f dBFS (%.0f dB under)"
                            .formatted(dbfs(rms(babble)), BABBLE_DB, dbfs(rms(street)), STREET_DB);
        }

        private static double rms(short[] s) {
            double squares = 0;
            for (short x : s) {
                squares += (double) x * x;
            }
            return Math.sqrt(squares / s.length);
        }
    }
}
