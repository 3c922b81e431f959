package dev.voiceagent.application.voice.runtime;

import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.conversation.ToolRunner;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.CallCompletion.CallModels;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.StartVoiceSessionUseCase;
import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.application.voice.runtime.session.CallLine;
import dev.voiceagent.application.voice.runtime.session.Ended;
import dev.voiceagent.application.voice.runtime.session.Moves;
import dev.voiceagent.application.voice.runtime.session.VoiceSession;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.voice.CallSettings;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A replica's rehearsal of calls before it says it is ready (the warm-up): whole pipeline calls, started by a media
 * socket as a carrier's call is, through the same session, voice activity, turn-taking and providers' adapters as a
 * real call ({@link VoiceSessionFactory.Pipeline}), with the adapters pointed at stand-ins of the providers. Nothing of
 * a rehearsed call is stored or counted: no run, no recording, no usage, no metrics, no trace; its end goes to
 * {@code ended} only.
 */
public final class CallRehearsal implements StartVoiceSessionUseCase {

    private final VoiceSessionFactory.Pipeline pipeline;
    private final CallModels models;
    private final WorkflowDefinition definition;
    private final Consumer<Ended> ended;

    /**
     * @param llm, stt, tts the endpoints the rehearsed calls talk on (their adapters' stand-ins answer them)
     * @param definition the rehearsed agent
     */
    public CallRehearsal(LanguageModel languageModel, SpeechToText speechToText, TextToSpeech textToSpeech,
            VoiceActivityDetector detector, ModelEndpoint llm, ModelEndpoint stt, ModelEndpoint tts,
            WorkflowDefinition definition, Consumer<Ended> ended) {
        this.pipeline = new VoiceSessionFactory.Pipeline(languageModel, speechToText, textToSpeech, detector);
        this.models = new CallModels(List.of(llm), List.of(stt), List.of(tts), false);
        this.definition = definition;
        this.ended = ended;
    }

    @Override
    public Uni<MediaInput> start(Admitted admitted, MediaChannel media, CallLoop loop) {
        return Uni.createFrom().emitter(emitter -> loop.execute(() -> {
            try {
                CallSettings settings = CallSettings.of(Map.of(), admitted.organizationId());
                AgentEngine engine = new AgentEngine(definition, Map.of(), n -> List.of(), 0,
                        AgentEngine.DEFAULT_MAX_MODEL_CALLS);
                CallLine line = new CallLine(loop, media, null, VoiceMetrics.NONE);
                VoiceSession session = pipeline.session(models, settings, engine, line, ToolRunner.NONE,
                        recordingId -> Uni.createFrom().failure(new IllegalStateException("a rehearsal plays no"
                                + " recording")), null, ended, Moves.NONE);
                session.connected();
                emitter.complete(session);
            } catch (RuntimeException e) {
                emitter.fail(e);
            }
        }));
    }

    @Override
    public Uni<Void> endUnstarted(Admitted admitted, String reason) {
        return Uni.createFrom().voidItem();
    }
}
