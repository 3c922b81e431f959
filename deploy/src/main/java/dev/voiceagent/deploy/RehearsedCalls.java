package dev.voiceagent.deploy;

import dev.voiceagent.adapters.media.MediaRehearsal;
import dev.voiceagent.adapters.media.webrtc.WebRtcDialer;
import dev.voiceagent.adapters.outbound.ChatCompletions;
import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.LanguageModels;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.SimulatorLanguageModel;
import dev.voiceagent.adapters.outbound.speech.SpeechProviders;
import dev.voiceagent.adapters.simulator.FreeTts;
import dev.voiceagent.adapters.simulator.TwilioStreamCallee;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.CallRehearsal;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import dev.voiceagent.application.voice.runtime.session.Ended;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.conversation.FeedbackEvents;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.telephony.CalleeScript;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketClient;
import java.net.URI;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The warm-up's whole calls: before the replica says it is ready, callers speaking real speech (FreeTTS's voice, as the
 * simulator's callee says its lines) call a rehearsed agent through everything a call goes through on this replica:
 * a media socket of its own ({@link MediaRehearsal}: the carriers' and the browsers' socket code, and WebRTC's
 * signaling, ICE, DTLS-SRTP and Opus, on the loopback),
 * voice activity, turn-taking with a barge-in, the session, and the replica's adapters of Deepgram, OpenAI's chat
 * completions and ElevenLabs ({@link SpeechProviders}, {@link ChatCompletions}: new instances of the same classes, on
 * the same HTTP clients) talking to stand-ins of those providers ({@link RehearsalProviders}). Nothing is stored, no
 * tenant's key is used, and no figure of the replica's metrics counts them.
 */
@ApplicationScoped
public class RehearsedCalls {

    /**
     * What the callers say, in order; the third over the agent's answer to the second (a barge-in). No commas: FreeTTS
     * pauses at them long enough for voice activity to end the turn there, and the stand-in recognizer hears a whole
     * line at each end of a turn.
     */
    static final List<String> LINES = List.of("Hello I would like to book a table for two tonight",
            "Around eight would be perfect for us", "Actually could we make it half past eight instead");
    /** What the agent answers, in order: its greeting, then one answer a line. */
    static final List<String> REPLIES = List.of("Good evening, thank you for calling. How can I help you today?",
            "Of course. What time would you like the table for two?",
            "Eight o'clock is free tonight. Shall I put the booking under your name and send a confirmation to this"
                    + " number by text message, so that you have the details at hand?",
            "Certainly, half past eight it is. Is there anything else I can do for you?");
    private static final WorkflowDefinition AGENT = WorkflowDefinition.of(Map.of("nodes", List.of(Map.of("id", "1",
            "type", "startCall", "data", Map.of("name", "Start", "prompt", "You take table bookings for a restaurant.",
                    "allow_interrupt", true))), "edges", List.of()));

    /** What a rehearsal did. */
    record Report(int calls, int ended, Map<String, Integer> reasons, int answers, int transcripts, int sentences,
            int interruptions) {

        /** The report as the readiness check shows it. */
        String summary() {
            return ended + " of " + calls + " calls ended " + reasons + "; " + answers + " answers, " + transcripts
                    + " transcripts, " + sentences + " sentences spoken, " + interruptions + " barge-ins";
        }
    }

    private final Vertx vertx;
    private final GuardedHttp http;
    private final SimulatorLanguageModel simulator;
    private final VoiceActivityDetector detector;
    private final TwilioStreamCallee callee;
    private final FreeTts freeTts;

    public RehearsedCalls(Vertx vertx, GuardedHttp http, SimulatorLanguageModel simulator,
            VoiceActivityDetector detector, TwilioStreamCallee callee, FreeTts freeTts) {
        this.freeTts = freeTts;
        this.vertx = vertx;
        this.http = http;
        this.simulator = simulator;
        this.detector = detector;
        this.callee = callee;
    }

    /**
     * {@code calls} phone calls (Twilio's media dialect, μ-law 8 kHz: the simulator's callee, answering as it hears
     * the agent) and {@code browserCalls} browser calls (a timed {@link RehearsalTape} at 16 kHz, half of them on the
     * plain WebSocket route in PCM, half over WebRTC in Opus) at once, each the whole script; returns once every call
     * ended or {@code within} passed (the calls left are hung up with the rehearsal's server).
     */
    Report run(int calls, int browserCalls, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        // the rehearsal's servers on a Vert.x of their own: the application's registers every server's metrics
        // under one set of tags, and these are no servers of the replica's
        Vertx servers = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2).setWorkerPoolSize(1)
                .setInternalBlockingPoolSize(1));
        try {
            return run(servers, calls, browserCalls, deadline);
        } finally {
            servers.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        }
    }

    private Report run(Vertx servers, int phoneCalls, int browserCalls, long deadline) throws Exception {
        int calls = phoneCalls + browserCalls;
        List<byte[]> tape = browserCalls == 0 ? List.of() : RehearsalTape.of(LINES.stream().map(line -> {
            try {
                return freeTts.audio(FreeTts.Speaker.CALLEE, line, AudioFormat.PCM_16K).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("FreeTTS could not say: " + line, e);
            }
        }).toList());
        List<byte[]> opus = browserCalls < 2 ? List.of() : WebRtcDialer.opus(tape);
        RehearsalProviders providers = RehearsalProviders.start(servers, LINES, REPLIES).toCompletionStage()
                .toCompletableFuture().get(5, TimeUnit.SECONDS);
        String url = providers.url();
        ProviderApis apis = new ProviderApis(url + "/v1", url, "2024-10-21", url, url, url, "2025-04-16");
        Duration timeout = Duration.ofSeconds(5);
        SpeechProviders speech = new SpeechProviders(http, apis, vertx, timeout, 1, Duration.ofMillis(200),
                Duration.ofSeconds(1));
        LanguageModels model = new LanguageModels(new ChatCompletions(http, apis, timeout, timeout, 1,
                Duration.ofMillis(200), Duration.ofSeconds(1)), simulator);
        Map<String, Integer> reasons = new ConcurrentHashMap<>();
        AtomicInteger ended = new AtomicInteger();
        AtomicInteger interruptions = new AtomicInteger();
        CallRehearsal rehearsal = new CallRehearsal(model, speech, speech, detector,
                endpoint(ModelService.LLM, "openai", "gpt-4.1-mini"),
                endpoint(ModelService.STT, "deepgram", "nova-3-general"),
                endpoint(ModelService.TTS, "elevenlabs", "eleven_flash_v2_5"), AGENT, (Ended end) -> {
                    reasons.merge(end.reason(), 1, Integer::sum);
                    interruptions.addAndGet((int) end.events().stream()
                            .filter(e -> FeedbackEvents.INTERRUPTION.equals(e.get("type"))).count());
                    ended.incrementAndGet();
                });
        MediaRehearsal media = MediaRehearsal.listen(servers, rehearsal).toCompletionStage().toCompletableFuture()
                .get(5, TimeUnit.SECONDS);
        try {
            CalleeScript script = new CalleeScript(LINES, 300, 3, 600);
            int seconds = (int) Math.max(1, TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime()));
            List<CompletableFuture<Integer>> talking = new ArrayList<>();
            for (int call = 1; call <= phoneCalls; call++) {
                talking.add(callee.answer(media.carrierUrl(call), -call, script, seconds).subscribeAsCompletionStage());
            }
            for (int call = phoneCalls + 1; call <= calls; call++) {
                // browsers alternate between the plain WebSocket route and WebRTC
                talking.add((call - phoneCalls) % 2 == 1 ? browser(servers, media.browserUrl(call), tape)
                        : webRtc(servers, media.webRtcUrl(call), opus));
            }
            for (CompletableFuture<Integer> call : talking) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    call.get(left, TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    break;
                } catch (java.util.concurrent.ExecutionException e) {
                    // a caller the media server refused: counted as not ended below
                }
            }
            // the sessions end once their sockets closed: a moment after the last caller hung up
            long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (ended.get() < calls && System.nanoTime() < Math.min(settle, deadline)) {
                Thread.sleep(20);
            }
            return new Report(calls, ended.get(), Map.copyOf(reasons), providers.chats.get(), providers.finals.get(),
                    providers.spoken.get(), interruptions.get());
        } finally {
            media.close();
            providers.close();
        }
    }

    /**
     * A browser on the plain WebSocket route playing {@code tape} in real time, then hanging up (closing the socket);
     * what the agent says is not listened to. Completes when the socket closed.
     */
    private static CompletableFuture<Integer> browser(Vertx vertx, String url, List<byte[]> tape) {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        URI uri = URI.create(url);
        WebSocketClient client = vertx.createWebSocketClient();
        client.connect(uri.getPort(), uri.getHost(), uri.getRawPath()).onSuccess(ws -> {
            long started = System.nanoTime();
            int[] sent = {0};
            long timer = vertx.setPeriodic(20, t -> {
                long due = (System.nanoTime() - started) / 20_000_000 + 1;
                while (sent[0] < due && sent[0] < tape.size() && !ws.isClosed()) {
                    ws.writeBinaryMessage(Buffer.buffer(tape.get(sent[0]++)));
                }
                if (sent[0] >= tape.size() && !ws.isClosed()) {
                    ws.close();
                }
            });
            ws.binaryMessageHandler(audio -> { });
            ws.textMessageHandler(event -> { });
            ws.closeHandler(v -> {
                vertx.cancelTimer(timer);
                client.close();
                done.complete(sent[0] / 50);
            });
        }).onFailure(failure -> {
            client.close();
            done.completeExceptionally(failure);
        });
        return done;
    }

    /**
     * A browser over WebRTC ({@link WebRtcDialer}: signaling, ICE, DTLS-SRTP) sending {@code packets} (the tape in
     * Opus) one every 20 ms once connected, then hanging up (closing its signaling socket). Completes when closed.
     */
    private static CompletableFuture<Integer> webRtc(Vertx vertx, String url, List<byte[]> packets) {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        WebRtcDialer[] dialer = new WebRtcDialer[1];
        dialer[0] = new WebRtcDialer(vertx, new WebRtcDialer.Audio() {
            private int sent;

            @Override
            public byte[] next(long now) {
                if (sent == packets.size()) {
                    vertx.runOnContext(v -> dialer[0].close());
                }
                return packets.get(Math.min(sent++, packets.size() - 1));
            }

            @Override
            public void heard(long now) {
            }
        });
        dialer[0].closed().whenComplete((reason, failure) -> done.complete(packets.size() / 50));
        Thread.ofVirtual().name("rehearsal-webrtc").start(() -> {
            try {
                dialer[0].connect(url);
            } catch (Exception e) {
                dialer[0].close();
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    private static ModelEndpoint endpoint(ModelService service, String provider, String model) {
        return new ModelEndpoint(service, provider, model, null, List.of("rehearsal"),
                Map.of("provider", provider, "model", model), false);
    }
}
