package dev.voiceagent.application.voice.runtime;

import dev.voiceagent.application.call.Transfer;
import dev.voiceagent.application.call.VoiceRuntime;
import dev.voiceagent.application.conversation.ConversationModels;
import dev.voiceagent.application.conversation.ConversationTools;
import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.AdmitCallMediaUseCase;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.StartVoiceSessionUseCase;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases;
import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.application.voice.runtime.port.out.CallCheckpoint;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.application.voice.runtime.port.out.VoiceRunStore;
import dev.voiceagent.application.voice.runtime.session.CallLog;
import dev.voiceagent.application.voice.runtime.session.RealtimeSession;
import dev.voiceagent.application.voice.runtime.session.VoiceSession;
import dev.voiceagent.application.workflow.RunCompletions;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.ChatRuns;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.storage.ObjectKeys;
import dev.voiceagent.domain.voice.TurnRules;
import dev.voiceagent.domain.voice.TurnTaking;
import dev.voiceagent.domain.voice.VoiceActivity;
import dev.voiceagent.domain.voice.VoicemailDetection;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The voice runtime's entrance: a carrier's media socket is admitted (its signed address, the run claimed for this
 * replica) and, once its media starts, the call gets its {@link VoiceSession} on the organization's models and the
 * run's pinned workflow version. When the call ends, its run keeps what it left: the conversation's gathered values,
 * the disposition, usage (call seconds, model tokens, speech-to-text seconds, text-to-speech characters) and the
 * events of its log; run.completed goes out once, whoever completes the run.
 */
@Singleton
public class VoiceCallService implements AdmitCallMediaUseCase, StartVoiceSessionUseCase,
        dev.voiceagent.application.call.ResumeCallStreamUseCase,
        dev.voiceagent.application.call.ReportAnsweringMachineUseCase {

    private static final System.Logger LOG = System.getLogger(VoiceCallService.class.getName());
    static final String BAD_TOKEN = "Invalid media token";
    static final String NOT_FOUND = "Workflow run not found";
    static final String COMPLETED = "The run is completed";
    static final String TAKEN = "The run's media is already connected";
    /**
     * How often a live call says its replica still holds it (well inside {@link VoiceRunStore#STALE}), and reads what
     * the carrier's answering-machine detection reported to another replica.
     */
    static final Duration HEARTBEAT = Duration.ofSeconds(5);
    /** Voice activity already waits 0.2 s of speech before it says the caller started: no second wait on top. */
    public static final TurnRules RULES = new TurnRules(Duration.ofMillis(1_500), Duration.ZERO, Duration.ofSeconds(10), 1,
            Duration.ofSeconds(300));

    /**
     * Voice activity on a phone line, in whole 32 ms Silero windows: speech from a confidence of 0.5 held for 3 windows
     * (96 ms; Silero's own threshold, a quicker barge-in than pipecat's 0.7 and 0.2 s), silence after 8 windows (256 ms)
     * below it, so the pause after a comma does not end the caller's turn (the turn also waits for the final
     * transcript); the volume floor is pipecat's 0.6 (-50 dBFS). Measured by the voice benchmark.
     */
    public static final VoiceActivity.Params ACTIVITY = new VoiceActivity.Params(0.5, Duration.ofMillis(96),
            Duration.ofMillis(256), 0.6);

    private final VoiceRuntime runtime;
    private final VoiceRunStore runs;
    private final WorkflowRepository workflows;
    private final ConversationModels models;
    private final ConversationTools tools;
    private final LanguageModel languageModel;
    private final SpeechToText speechToText;
    private final TextToSpeech textToSpeech;
    private final VoiceActivityDetector detector;
    private final VoiceSessions sessions;
    private final RunCompletions completions;
    private final CallRecorder recorder;
    private final ObjectStore objects;
    private final VoiceMetrics metrics;
    private final CarrierCalls carrier;
    private final RecordedPrompts prompts;
    private final SpeechToSpeech speechToSpeech;

    public VoiceCallService(VoiceRuntime runtime, VoiceRunStore runs, WorkflowRepository workflows,
            ConversationModels models, ConversationTools tools, LanguageModel languageModel, SpeechToText speechToText,
            TextToSpeech textToSpeech, VoiceActivityDetector detector, VoiceSessions sessions, CallRecorder recorder,
            ObjectStore objects, VoiceMetrics metrics, CarrierCalls carrier, RecordedPrompts prompts,
            SpeechToSpeech speechToSpeech) {
        this.prompts = prompts;
        this.speechToSpeech = speechToSpeech;
        this.metrics = metrics;
        this.carrier = carrier;
        this.recorder = recorder;
        this.objects = objects;
        this.runtime = runtime;
        this.runs = runs;
        this.workflows = workflows;
        this.models = models;
        this.tools = tools;
        this.languageModel = languageModel;
        this.speechToText = speechToText;
        this.textToSpeech = textToSpeech;
        this.detector = detector;
        this.sessions = sessions;
        this.completions = new RunCompletions(workflows);
    }

    @Override
    public Uni<Admitted> admit(long workflowId, long organizationId, long runId, String token) {
        if (token == null || !runtime.accepts(organizationId, workflowId, runId, token)) {
            return Uni.createFrom().failure(new ForbiddenException(BAD_TOKEN));
        }
        return runs.claim(organizationId, workflowId, runId, Instant.now())
                .map(claim -> admitted(claim, organizationId, workflowId, runId));
    }

    /** The run a claim took for this replica, or the refusal's 404 (unknown) or 409 (completed, media taken). */
    static Admitted admitted(VoiceRunStore.Claim claim, long organizationId, long workflowId, long runId) {
        if (claim.run().isPresent()) {
            return new Admitted(organizationId, workflowId, runId, claim.run().get(), claim.checkpoint());
        }
        throw switch (claim.refusal()) {
            case UNKNOWN -> new ResourceNotFoundException(NOT_FOUND);
            case COMPLETED -> new CallMediaUseCases.MediaUnavailable(COMPLETED, true);
            case TAKEN -> new CallMediaUseCases.MediaUnavailable(TAKEN, false);
        };
    }

    @Override
    public Uni<Void> report(long runId, Verdict verdict) {
        // kept on the run for a session on another replica (its heartbeat reads it); told at once to one here
        return runs.carrierAmd(runId, verdict.name()).invoke(() -> sessions.carrierAmd(runId, verdict.name()));
    }

    @Override
    public Uni<java.util.Optional<String>> resume(long runId) {
        return runs.reopen(runId, MAX_MOVES).map(reopened -> reopened.flatMap(r -> runtime.streamUrl(
                r.organizationId(), r.workflowId(), runId)));
    }

    /** What a call runs on: the language model (the speech-to-speech model when realtime), speech, tools. */
    private record Loaded(Workflow workflow, WorkflowVersion version, ModelEndpoint llm, ModelEndpoint stt,
            ModelEndpoint tts, ConversationTools.Toolbox toolbox, boolean realtime) {
    }

    @Override
    public Uni<MediaInput> start(Admitted admitted, MediaChannel media, CallLoop loop) {
        WorkflowRun run = admitted.run();
        long org = admitted.organizationId();
        return workflows.find(org, admitted.workflowId())
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")))
                .chain(workflow -> workflows.findVersion(org, workflow.id(), run.definitionId())
                        .map(v -> v.orElseThrow(() -> new ResourceNotFoundException("Workflow version not found")))
                        .chain(version -> {
                            long owner = workflow.createdBy() == null ? 0 : workflow.createdBy();
                            Map<String, Object> configurations = version.configurations();
                            return models.realtime(org, owner, configurations).chain(realtime -> realtime.isPresent()
                                    ? tools.load(org, version.definition()).map(toolbox -> new Loaded(workflow,
                                            version, realtime.get(), null, null, toolbox, true))
                                    : Uni.combine().all().unis(models.languageModel(org, owner, configurations),
                                    models.speech(org, owner, ModelService.STT, configurations),
                                    models.speech(org, owner, ModelService.TTS, configurations),
                                    tools.load(org, version.definition())).asTuple()
                                    .map(t -> new Loaded(workflow, version, t.getItem1(), t.getItem2(), t.getItem3(),
                                            t.getItem4(), false)));
                        }))
                .onItem().transformToUni(loaded -> Uni.createFrom().emitter(emitter -> loop.execute(() -> {
                    try {
                        emitter.complete(loaded.realtime() ? beginRealtime(admitted, loaded, media, loop)
                                : begin(admitted, loaded, media, loop));
                    } catch (RuntimeException e) {
                        emitter.fail(e);
                    }
                })))
                .map(MediaInput.class::cast)
                .onFailure().call(failure -> refuse(admitted, media, loop, failure))
                .onFailure().recoverWithNull();
    }

    private VoiceSession begin(Admitted admitted, Loaded loaded, MediaChannel media, CallLoop loop) {
        WorkflowRun run = admitted.run();
        AgentEngine engine = new AgentEngine(loaded.version().definition(), run.initialContext() == null ? Map.of()
                : run.initialContext(), loaded.toolbox().nodeTools(), 0, AgentEngine.DEFAULT_MAX_MODEL_CALLS);
        VoiceSession[] session = new VoiceSession[1];
        // the streams are opened before the session exists; their events reach it through the loop, after it does
        SpeechToText.Stream stt = speechToText.open(loaded.stt(), media.format(), new SpeechToText.Listener() {
            @Override
            public void transcript(String text, boolean isFinal) {
                loop.execute(() -> session[0].transcript(text, isFinal));
            }

            @Override
            public void failed(String message) {
                loop.execute(() -> session[0].failed("speech-to-text: " + message));
            }
        });
        TextToSpeech.Stream tts;
        try {
            tts = textToSpeech.open(loaded.tts(), media.format(), new TextToSpeech.Listener() {
                @Override
                public void audio(String utterance, byte[] audio) {
                    loop.execute(() -> session[0].voiceAudio(utterance, audio));
                }

                @Override
                public void done(String utterance) {
                    loop.execute(() -> session[0].voiceDone(utterance));
                }

                @Override
                public void words(String utterance, List<dev.voiceagent.domain.voice.HeardText.Word> words) {
                    loop.execute(() -> session[0].voiceWords(utterance, words));
                }

                @Override
                public void failed(String message) {
                    loop.execute(() -> session[0].failed("text-to-speech: " + message));
                }
            });
        } catch (RuntimeException e) {
            stt.close();
            throw e;
        }
        VoiceActivityDetector.Stream vad = detector.open(media.format().sampleRate());
        CallRecorder.Recording recording = recorder.open(admitted.organizationId(), admitted.runId(), media.format());
        VoiceSession.Parts parts = new VoiceSession.Parts(loop, media, stt, tts, vad, detector.windowMillis(), engine,
                languageModel, loaded.llm(), loaded.toolbox().runner(), new TurnTaking(RULES),
                ACTIVITY, recording, metrics,
                recordingId -> prompts.load(admitted.organizationId(), recordingId, media.format()),
                voicemail(run, loaded));
        AutoCloseable heartbeat = heartbeat(admitted, loop, verdict -> loop.execute(() -> session[0].carrierAmd(
                verdict)));
        java.util.function.Consumer<VoiceSession.Ended> ended = whenEnded(admitted, loaded, media, loop, recording,
                heartbeat);
        VoiceSession.Moves moves = new VoiceSession.Moves(admitted.checkpoint(),
                checkpoint -> runs.checkpoint(admitted.runId(), checkpoint).subscribe().with(ok -> { },
                        f -> LOG.log(System.Logger.Level.DEBUG, "checkpoint of run {0}: {1}", admitted.runId(),
                                f.toString())),
                checkpoint -> moved(admitted, checkpoint, heartbeat));
        session[0] = new VoiceSession(parts, engine.initialState(), ended, moves);
        sessions.add(admitted.runId(), new VoiceSessions.Handle(() -> loop.execute(session[0]::handOver),
                verdict -> loop.execute(() -> session[0].carrierAmd(verdict))));
        session[0].connected();
        return session[0];
    }


    /**
     * A call on a speech-to-speech model: the model hears and answers, the engine keeps the graph; the end is the
     * pipeline's (transfer, hang-up at the carrier, the run finished).
     */
    private RealtimeSession beginRealtime(Admitted admitted, Loaded loaded, MediaChannel media, CallLoop loop) {
        WorkflowRun run = admitted.run();
        AgentEngine engine = new AgentEngine(loaded.version().definition(), run.initialContext() == null ? Map.of()
                : run.initialContext(), loaded.toolbox().nodeTools(), 0, AgentEngine.DEFAULT_MAX_MODEL_CALLS);
        CallRecorder.Recording recording = recorder.open(admitted.organizationId(), admitted.runId(), media.format());
        RealtimeSession.Parts parts = new RealtimeSession.Parts(loop, media,
                listener -> speechToSpeech.open(loaded.llm(), media.format(), listener), engine,
                loaded.toolbox().runner(), RULES, recording, metrics,
                recordingId -> prompts.load(admitted.organizationId(), recordingId, media.format()));
        RealtimeSession session = new RealtimeSession(parts, engine.initialState(), whenEnded(admitted, loaded,
                media, loop, recording, heartbeat(admitted, loop, verdict -> { })));
        sessions.add(admitted.runId(), () -> { }); // a speech-to-speech call is not moved yet
        session.connected();
        return session;
    }

    /** Every few seconds while the call talks here: the run's media is still held by this replica. */
    private AutoCloseable heartbeat(Admitted admitted, CallLoop loop,
            java.util.function.Consumer<String> carrierAmd) {
        return loop.every(HEARTBEAT, () -> runs.heartbeatAndAmd(admitted.runId(), Instant.now())
                .subscribe().with(amd -> amd.ifPresent(carrierAmd), f -> LOG.log(System.Logger.Level.WARNING,
                        "heartbeat of run {0}: {1}", admitted.runId(), f.toString())));
    }

    /**
     * The call left this replica for another (it drains, or the carrier's stream broke): its checkpoint is kept and
     * its media released for the carrier's next stream; its run is not finished here.
     */
    private void moved(Admitted admitted, CallCheckpoint checkpoint, AutoCloseable heartbeat) {
        sessions.remove(admitted.runId());
        try {
            heartbeat.close();
        } catch (Exception ignored) {
            // a loop's timer: nothing to release
        }
        runs.release(admitted.runId(), checkpoint).subscribe().with(
                ok -> LOG.log(System.Logger.Level.DEBUG, "run {0} let go for another replica", admitted.runId()),
                f -> LOG.log(System.Logger.Level.WARNING, "run {0} not released: {1}", admitted.runId(),
                        f.toString()));
    }

    /**
     * What happens when a call ends: the heartbeat stops; a transfer is handed to the carrier; a call the agent ended
     * is hung up at the carrier too; the run is finished.
     */
    private java.util.function.Consumer<VoiceSession.Ended> whenEnded(Admitted admitted, Loaded loaded,
            MediaChannel media, CallLoop loop, CallRecorder.Recording recording, AutoCloseable heartbeat) {
        return ended -> {
            try {
                heartbeat.close();
            } catch (Exception ignored) {
                // the loop's timer goes with the socket
            }
            if (VoiceSession.TRANSFER.equals(ended.reason())) {
                transfer(admitted, media, loop, ended).subscribe().with(
                        outcome -> finish(admitted, loaded, recording, outcome),
                        failure -> finish(admitted, loaded, recording, ended));
                return;
            }
            if (!TurnTaking.USER_HANGUP.equals(ended.reason())) { // the agent ended it: the carrier ends the call too
                carrier.hangUp(admitted.organizationId(), admitted.runId()).subscribe().with(ok -> { },
                        f -> LOG.log(System.Logger.Level.DEBUG, "hang-up of run {0} at the carrier: {1}",
                                admitted.runId(), f.toString()));
            }
            finish(admitted, loaded, recording, ended);
        };
    }

    /**
     * Hands the call to the transfer tool's destination through the carrier's API, then lets the media go; when the
     * carrier refuses (or the destination is only known at call time), the call ends as transfer_call_failed with the
     * reason. The caller heard the transfer's message before this (the session waits for its last mark).
     */
    private Uni<VoiceSession.Ended> transfer(Admitted admitted, MediaChannel media, CallLoop loop,
            VoiceSession.Ended ended) {
        Map<?, ?> details = ended.endDetails();
        Object destination = details.get("destination");
        int timeout = details.get("timeout") instanceof Number n ? n.intValue() : 30;
        String whisper = details.get("whisper_message") instanceof String w ? w : null;
        Uni<String> whisperAudio = details.get("whisper_recording_id") instanceof String id
                ? prompts.publicUrl(admitted.organizationId(), id, WHISPER_URL_TTL).onFailure().recoverWithItem(f -> {
                    LOG.log(System.Logger.Level.WARNING, "run {0}: the whisper recording {1} is not played: {2}",
                            admitted.runId(), id, f.getMessage());
                    return null;
                }) : Uni.createFrom().nullItem();
        Uni<Void> handed = destination instanceof String to && !to.isBlank()
                ? whisperAudio.chain(audio -> carrier.transfer(admitted.organizationId(), new Transfer(
                        admitted.runId(), to, timeout, whisper, audio)))
                : Uni.createFrom().failure(new IllegalStateException(details.get("destination_problem")
                        instanceof String problem ? problem : "the transfer has no destination"));
        return handed.map(ok -> {
            loop.execute(() -> media.close(VoiceSession.TRANSFER)); // the carrier has the call: its stream ends
            return ended;
        }).onFailure().recoverWithItem(failure -> {
            String reason = "The call could not be transferred: " + failure.getMessage();
            LOG.log(System.Logger.Level.WARNING, "run {0}: {1}", admitted.runId(), reason);
            loop.execute(() -> media.close(TRANSFER_FAILED));
            return ended.as(TRANSFER_FAILED, reason);
        });
    }

    static final String TRANSFER_FAILED = "transfer_call_failed";
    /** How long a whisper recording's address is good for: the transfer rings at most 120 s. */
    static final Duration WHISPER_URL_TTL = Duration.ofMinutes(10);

    /**
     * The workflow's voicemail detection, on outbound calls only (an inbound caller is never a voicemail): the
     * workflow's own model classifies, or the model the setting names with its key.
     */
    static VoiceSession.Voicemail voicemail(WorkflowRun run, Loaded loaded) {
        VoicemailDetection detection = VoicemailDetection.of(loaded.version().configurations());
        if (!detection.enabled() || !"outbound".equals(run.callType())) {
            return null;
        }
        if (detection.useWorkflowLlm() || detection.provider() == null) {
            return new VoiceSession.Voicemail(detection, loaded.llm());
        }
        String model = detection.model() == null ? "gpt-4.1" : detection.model();
        return new VoiceSession.Voicemail(detection, new ModelEndpoint(ModelService.LLM, detection.provider(), model,
                null, detection.apiKey() == null ? List.of() : List.of(detection.apiKey()),
                Map.of("provider", detection.provider(), "model", model), false));
    }

    @Override
    public Uni<Void> endUnstarted(Admitted admitted, String reason) {
        Instant now = Instant.now();
        return finishUnstarted(admitted, ChatRuns.completed(admitted.run(), reason, now), "rtf-call-ended",
                Map.of("reason", reason), now);
    }

    /** The call could not start (a model the runtime cannot use, a workflow gone): the run ends with the reason. */
    private Uni<Void> refuse(Admitted admitted, MediaChannel media, CallLoop loop, Throwable failure) {
        String reason = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        LOG.log(System.Logger.Level.WARNING, "voice session of run {0} not started: {1}", admitted.runId(), reason);
        loop.execute(() -> media.close(VoiceSession.PIPELINE_ERROR));
        Instant now = Instant.now();
        return finishUnstarted(admitted, ChatRuns.completed(withError(admitted.run(), reason),
                VoiceSession.PIPELINE_ERROR, now), "rtf-pipeline-error",
                CallLog.pipelineError(Map.of("message", reason, "fatal", true)), now);
    }

    /** A call that never had a session: its run finished as {@code ended}, with one event saying why. */
    private Uni<Void> finishUnstarted(Admitted admitted, WorkflowRun ended, String type, Map<String, Object> payload,
            Instant now) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("type", type);
        event.put("timestamp", now.toString());
        event.put("payload", payload);
        return completions.events(false, ended, now)
                .chain(events -> runs.finish(ended, List.of(event), events, now)).replaceWithVoid()
                .onFailure().invoke(f -> LOG.log(System.Logger.Level.WARNING, "run {0} not finished: {1}",
                        admitted.runId(), f.toString()))
                .onFailure().recoverWithNull();
    }

    private static WorkflowRun withError(WorkflowRun r, String reason) {
        Map<String, Object> gathered = new LinkedHashMap<>(r.gatheredContext() == null ? Map.of()
                : r.gatheredContext());
        gathered.put("error", reason);
        return new WorkflowRun(r.id(), r.organizationId(), r.workflowId(), r.definitionId(), r.name(), r.mode(),
                r.callType(), r.state(), r.completed(), r.recordingUrl(), r.transcriptUrl(), r.usageInfo(),
                r.costInfo(), r.initialContext(), gathered, r.logs(), r.annotations(), r.campaignId(), r.createdAt());
    }

    private void finish(Admitted admitted, Loaded loaded, CallRecorder.Recording recording,
            VoiceSession.Ended ended) {
        sessions.remove(admitted.runId());
        long org = admitted.organizationId();
        String transcriptKey = ObjectKeys.transcript(org, admitted.runId());
        Uni<String> recorded = recording.finish().onFailure().invoke(f -> LOG.log(System.Logger.Level.WARNING,
                "recording of run {0} not stored: {1}", admitted.runId(), f.toString())).onFailure().recoverWithNull();
        Uni<String> transcribed = objects.put(transcriptKey, transcript(ended.conversation()),
                        "text/plain; charset=utf-8").replaceWith(transcriptKey)
                .onFailure().invoke(f -> LOG.log(System.Logger.Level.WARNING, "transcript of run {0} not stored: {1}",
                        admitted.runId(), f.toString())).onFailure().recoverWithNull();
        Uni.combine().all().unis(recorded, transcribed).asTuple()
                .map(keys -> finished(admitted.run(), loaded, ended, keys.getItem1(), keys.getItem2()))
                .chain(finished -> completions.events(false, finished, ended.endedAt())
                        .chain(events -> runs.finish(finished, ended.events(), events, ended.endedAt())))
                .subscribe().with(done -> {
                    LOG.log(System.Logger.Level.DEBUG, "run {0} finished: {1}", admitted.runId(), ended.reason());
                    if (VoicemailDetection.DISPOSITION.equals(ended.reason()) || carrierSaidMachine(ended)) {
                        // a campaign's retry sees it (a machine the workflow did not detect included)
                        int seconds = ended.connectedAt() == null ? 0
                                : (int) Duration.between(ended.connectedAt(), ended.endedAt()).toSeconds();
                        carrier.voicemail(admitted.runId(), seconds).subscribe().with(ok -> { },
                                f -> LOG.log(System.Logger.Level.WARNING, "voicemail of run {0} not reported: {1}",
                                        admitted.runId(), f.toString()));
                    }
                },
                        failure -> LOG.log(System.Logger.Level.WARNING, "run {0} not finished: {1}",
                                admitted.runId(), failure.toString()));
    }

    /** The carrier's answering-machine detection said the callee was a machine (or a fax). */
    static boolean carrierSaidMachine(VoiceSession.Ended ended) {
        return ended.events().stream().filter(e -> "rtf-carrier-amd".equals(e.get("type")))
                .map(e -> e.get("payload") instanceof Map<?, ?> p ? String.valueOf(p.get("answered_by")) : "")
                .anyMatch(v -> v.startsWith("machine") || v.equals("fax"));
    }

    /** The run as the call left it: values gathered, disposition, usage, and where its recording and transcript are. */
    private static WorkflowRun finished(WorkflowRun run, Loaded loaded, VoiceSession.Ended ended, String recordingKey,
            String transcriptKey) {
        WorkflowRun after = ChatRuns.afterTurn(run, ended.conversation(), ended.tokens(),
                ConversationModels.key(loaded.llm()), ended.endedAt());
        if (ended.failure() != null) {
            after = withError(after, ended.failure());
        }
        WorkflowRun completed = ChatRuns.completed(after, ended.reason(), ended.endedAt());
        Map<String, Object> usage = new LinkedHashMap<>(completed.usageInfo());
        usage.put("call_duration_seconds", ended.connectedAt() == null ? 0.0
                : Duration.between(ended.connectedAt(), ended.endedAt()).toMillis() / 1000.0);
        if (loaded.realtime()) { // one model heard and spoke: its tokens are under llm, its audio here
            usage.put("realtime", Map.of(ConversationModels.key(loaded.llm()), Map.of("audio_seconds",
                    Math.round(ended.speechSeconds() * 100) / 100.0, "characters", ended.spokenCharacters())));
        } else {
            usage.put("stt", Map.of(ConversationModels.key(loaded.stt()), Map.of("audio_seconds",
                    Math.round(ended.speechSeconds() * 100) / 100.0)));
            usage.put("tts", Map.of(ConversationModels.key(loaded.tts()), Map.of("characters",
                    ended.spokenCharacters())));
        }
        return new WorkflowRun(completed.id(), completed.organizationId(), completed.workflowId(),
                completed.definitionId(), completed.name(), completed.mode(), completed.callType(), completed.state(),
                completed.completed(), recordingKey, transcriptKey, usage, completed.costInfo(),
                completed.initialContext(), completed.gatheredContext(), completed.logs(), completed.annotations(),
                completed.campaignId(), completed.createdAt());
    }

    /** "user: ..." and "assistant: ..." lines, what was said (as heard), as text chat's transcripts read. */
    static byte[] transcript(ConversationState conversation) {
        StringBuilder text = new StringBuilder();
        for (ChatMessage m : conversation.messages()) {
            if ((m.role() == ChatMessage.Role.USER || m.role() == ChatMessage.Role.ASSISTANT) && m.content() != null
                    && !m.content().isBlank()) {
                text.append(m.role().wireName()).append(": ").append(m.content().strip()).append('\n');
            }
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
