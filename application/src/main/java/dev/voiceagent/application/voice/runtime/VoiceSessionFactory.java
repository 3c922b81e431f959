package dev.voiceagent.application.voice.runtime;

import dev.voiceagent.application.conversation.ConversationModels;
import dev.voiceagent.application.conversation.ConversationTools;
import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.conversation.ToolRunner;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.trace.RunTrace;
import dev.voiceagent.application.trace.RunTracing;
import dev.voiceagent.application.voice.runtime.CallCompletion.CallModels;
import dev.voiceagent.application.voice.runtime.CallCompletion.LiveCall;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.StartVoiceSessionUseCase;
import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.application.voice.runtime.session.Answering;
import dev.voiceagent.application.voice.runtime.session.CallLine;
import dev.voiceagent.application.voice.runtime.session.Ended;
import dev.voiceagent.application.voice.runtime.session.Listening;
import dev.voiceagent.application.voice.runtime.session.Moves;
import dev.voiceagent.application.voice.runtime.session.SpeechToSpeechSession;
import dev.voiceagent.application.voice.runtime.session.VoiceSession;
import dev.voiceagent.application.voice.runtime.session.Voicemail;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.audio.AmbientLoop;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.voice.CallSettings;
import dev.voiceagent.domain.voice.TurnRules;
import dev.voiceagent.domain.voice.TurnTaking;
import dev.voiceagent.domain.voice.VoiceActivity;
import dev.voiceagent.domain.voice.VoicemailDetection;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A call's session, once its media starts: the run's pinned workflow version and the organization's models are
 * loaded, the session is built (the pipeline's {@link VoiceSession}, or a {@link SpeechToSpeechSession} where the workflow
 * talks on a speech-to-speech model), then it opens its own streams as it connects, and the call is registered live
 * ({@link CallCompletion}). A model the runtime cannot use ends the call at once, with the reason on the run.
 */
@Singleton
public class VoiceSessionFactory implements StartVoiceSessionUseCase {

    /**
     * The runtime's own timings of turn-taking; a call's length and idle time come from its workflow's settings
     * ({@link CallSettings#rules}). Voice activity already waits 64 ms of speech before it says the caller started:
     * no second wait on top (the agent is held at once, and resumes when no words of a turn follow).
     */
    public static final TurnRules RULES = new TurnRules(Duration.ofMillis(1_500), Duration.ZERO,
            Duration.ofSeconds(10), 1, Duration.ofSeconds(300));

    /**
     * Voice activity on a phone line, in whole 32 ms Silero windows: speech from a confidence of 0.5 held for 2 windows
     * (64 ms; Silero's own threshold, LiveKit's 50 ms rounded up to whole windows, a quicker barge-in than pipecat's 0.7
     * and 0.2 s: a sound that is no turn only holds the agent a moment, see {@code TurnTaking}), silence after 8
     * windows (256 ms) below it, so the pause after a comma does not end the caller's turn (the turn also waits for the
     * final transcript); the volume floor is pipecat's 0.6 (-50 dBFS). Measured by the voice and turn-taking
     * benchmarks (at 96 ms the phone's barge-in p90 was 320 ms).
     */
    public static final VoiceActivity.Params ACTIVITY = new VoiceActivity.Params(0.5, Duration.ofMillis(64),
            Duration.ofMillis(256), 0.6);

    /**
     * What a call runs on: its workflow's version, its models (the speech-to-speech model when realtime), tools, and
     * the sound under the agent's voice (null: none).
     */
    private record Loaded(WorkflowVersion version, CallModels models, ConversationTools.Toolbox toolbox,
            AmbientLoop ambience, RunTrace trace) {

        Loaded(WorkflowVersion version, CallModels models, ConversationTools.Toolbox toolbox) {
            this(version, models, toolbox, null, RunTrace.NONE);
        }

        Loaded with(AmbientLoop sound) {
            return new Loaded(version, models, toolbox, sound, trace);
        }

        Loaded with(RunTrace opened) {
            return new Loaded(version, models, toolbox, ambience, opened);
        }
    }

    private final WorkflowRepository workflows;
    private final ConversationModels models;
    private final ConversationTools tools;
    private final Pipeline pipeline;
    private final SpeechToSpeech speechToSpeech;
    private final CallRecorder recorder;
    private final VoiceMetrics metrics;
    private final RecordedPrompts prompts;
    private final CallCompletion calls;
    private final AmbientSounds ambientSounds;
    private final RunTracing tracing;

    public VoiceSessionFactory(WorkflowRepository workflows, ConversationModels models, ConversationTools tools,
            LanguageModel languageModel, SpeechToText speechToText, TextToSpeech textToSpeech,
            VoiceActivityDetector detector, SpeechToSpeech speechToSpeech, CallRecorder recorder,
            VoiceMetrics metrics, RecordedPrompts prompts, CallCompletion calls, AmbientSounds ambientSounds,
            RunTracing tracing) {
        this.tracing = tracing;
        this.workflows = workflows;
        this.models = models;
        this.tools = tools;
        this.pipeline = new Pipeline(languageModel, speechToText, textToSpeech, detector);
        this.speechToSpeech = speechToSpeech;
        this.recorder = recorder;
        this.metrics = metrics;
        this.prompts = prompts;
        this.calls = calls;
        this.ambientSounds = ambientSounds;
    }

    @Override
    public Uni<MediaInput> start(Admitted admitted, MediaChannel media, CallLoop loop) {
        return load(admitted)
                .chain(loaded -> ambientSounds.load(CallSettings.of(loaded.version().configurations(),
                        admitted.organizationId()).ambientNoise(), media.format()).map(loaded::with))
                .chain(loaded -> tracing.open(admitted.run(), "call " + admitted.run().name(), loop.now(),
                        traced(loaded)).map(loaded::with))
                .onItem().transformToUni(loaded -> Uni.createFrom().<MediaInput>emitter(emitter -> loop.execute(() -> {
                    try {
                        emitter.complete(begin(admitted, loaded, media, loop));
                    } catch (RuntimeException e) {
                        emitter.fail(e);
                    }
                })))
                .onFailure().call(failure -> calls.refuse(admitted, media, loop, failure))
                .onFailure().recoverWithNull();
    }

    @Override
    public Uni<Void> endUnstarted(Admitted admitted, String reason) {
        return calls.endUnstarted(admitted, reason);
    }

    /** What a call's trace says of it: the models it talks on (never their keys). */
    private static Map<String, Object> traced(Loaded loaded) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        CallModels models = loaded.models();
        attributes.put(models.realtime() ? "voiceagent.realtime.model" : "voiceagent.llm.model",
                ConversationModels.key(models.llm()));
        if (!models.stts().isEmpty()) {
            attributes.put("voiceagent.stt.model", ConversationModels.key(models.stts().getFirst()));
        }
        if (!models.ttss().isEmpty()) {
            attributes.put("voiceagent.tts.model", ConversationModels.key(models.ttss().getFirst()));
        }
        return attributes;
    }

    /** The run's pinned version of its workflow, the organization's models for it, and the agent's tools. */
    private Uni<Loaded> load(Admitted admitted) {
        WorkflowRun run = admitted.run();
        long org = admitted.organizationId();
        return workflows.find(org, admitted.workflowId())
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")))
                .chain(workflow -> workflows.findVersion(org, workflow.id(), run.definitionId())
                        .map(v -> v.orElseThrow(() -> new ResourceNotFoundException("Workflow version not found")))
                        .chain(version -> load(org, workflow, version)));
    }

    private Uni<Loaded> load(long org, Workflow workflow, WorkflowVersion version) {
        long owner = workflow.createdBy() == null ? 0 : workflow.createdBy();
        Map<String, Object> configurations = version.configurations();
        return models.realtime(org, owner, configurations).chain(realtime -> realtime.isPresent()
                ? tools.load(org, version.definition()).map(toolbox -> new Loaded(version,
                        CallModels.speechToSpeech(realtime.get()), toolbox))
                : Uni.combine().all().unis(models.languageModels(org, owner, configurations),
                        models.speeches(org, owner, ModelService.STT, configurations),
                        models.speeches(org, owner, ModelService.TTS, configurations),
                        tools.load(org, version.definition())).asTuple()
                .map(t -> new Loaded(version, new CallModels(t.getItem1(), t.getItem2(), t.getItem3(), false),
                        t.getItem4())));
    }

    /** On the call's loop: the session is built, connects (opening its streams) and the call is live here. */
    private MediaInput begin(Admitted admitted, Loaded loaded, MediaChannel media, CallLoop loop) {
        WorkflowRun run = admitted.run();
        CallSettings settings = CallSettings.of(loaded.version().configurations(), admitted.organizationId());
        AgentEngine engine = new AgentEngine(loaded.version().definition(), run.initialContext() == null ? Map.of()
                : run.initialContext(), loaded.toolbox().nodeTools(), 0, AgentEngine.DEFAULT_MAX_MODEL_CALLS);
        CallRecorder.Recording recording = recorder.open(admitted.organizationId(), admitted.runId(), media.format());
        CallLine line = new CallLine(loop, media, recording, metrics, loaded.ambience(), loaded.trace());
        LiveCall call = calls.call(admitted, loaded.models(), media, loop, recording);
        if (loaded.models().realtime()) {
            ModelEndpoint model = loaded.models().llm();
            SpeechToSpeechSession session = new SpeechToSpeechSession(new SpeechToSpeechSession.Parts(line,
                    listener -> speechToSpeech.open(model, media.format(), listener), engine,
                    loaded.toolbox().runner(), settings.rules(RULES), recordingId -> prompts.load(admitted.organizationId(),
                    recordingId, media.format())), engine.initialState(), call::ended);
            session.connected();
            call.live(new VoiceSessions.Handle(() -> { }, verdict -> { })); // a speech-to-speech call is not moved yet
            return session;
        }
        VoiceSession session = pipeline(admitted, loaded, settings, engine, line, call);
        session.connected();
        call.live(new VoiceSessions.Handle(() -> loop.execute(session::handOver),
                verdict -> loop.execute(() -> session.carrierAmd(verdict))));
        return session;
    }

    private VoiceSession pipeline(Admitted admitted, Loaded loaded, CallSettings settings, AgentEngine engine,
            CallLine line, LiveCall call) {
        AudioFormat format = line.media().format();
        return pipeline.session(loaded.models(), settings, engine, line, loaded.toolbox().runner(),
                recordingId -> prompts.load(admitted.organizationId(), recordingId, format),
                voicemail(admitted.run(), loaded.models().llm(), loaded.version()), call::ended,
                new Moves(admitted.checkpoint(), call::checkpoint, call::moved));
    }

    /**
     * The ports a pipeline call talks through: the replica's own, or a rehearsal's pointed at stand-ins
     * ({@link CallRehearsal}).
     */
    record Pipeline(LanguageModel languageModel, SpeechToText speechToText, TextToSpeech textToSpeech,
            VoiceActivityDetector detector) {

        /** A pipeline call's session on {@code line}: its recognizers, models and voices (each with its fallbacks). */
        VoiceSession session(CallModels models, CallSettings settings, AgentEngine engine, CallLine line,
                ToolRunner tools, Function<String, Uni<RecordedPrompts.Prompt>> prompts, Voicemail voicemail,
                Consumer<Ended> ended, Moves moves) {
            AudioFormat format = line.media().format();
            List<Listening.Recognizer> recognizers = models.stts().stream().map(stt -> new Listening.Recognizer(
                    ConversationModels.key(stt), listener -> speechToText.open(stt.withKeyterms(settings.dictionary()),
                            format, listener))).toList();
            List<Answering.Voice> voices = models.ttss().stream().map(tts -> new Answering.Voice(
                    ConversationModels.key(tts), listener -> textToSpeech.open(tts, format, listener))).toList();
            VoiceSession.Parts parts = new VoiceSession.Parts(line, new Listening(recognizers, detector, ACTIVITY),
                    new Answering(engine, languageModel, models.llms(), tools, voices, prompts),
                    new TurnTaking(settings.rules(RULES), settings.turnStart(), settings.minWords(),
                            settings.provisionalPause()),
                    voicemail, settings.contextCompaction());
            return new VoiceSession(parts, engine.initialState(), ended, moves);
        }
    }

    /**
     * The workflow's voicemail detection, on outbound calls only (an inbound caller is never a voicemail): the
     * workflow's own model classifies, or the model the setting names with its key.
     */
    static Voicemail voicemail(WorkflowRun run, ModelEndpoint llm, WorkflowVersion version) {
        VoicemailDetection detection = VoicemailDetection.of(version.configurations());
        if (!detection.enabled() || !"outbound".equals(run.callType())) {
            return null;
        }
        if (detection.useWorkflowLlm() || detection.provider() == null) {
            return new Voicemail(detection, llm);
        }
        String model = detection.model() == null ? "gpt-4.1" : detection.model();
        return new Voicemail(detection, new ModelEndpoint(ModelService.LLM, detection.provider(), model, null,
                detection.apiKey() == null ? List.of() : List.of(detection.apiKey()),
                Map.of("provider", detection.provider(), "model", model), false));
    }
}
