package dev.voiceagent.application.voice.runtime;

import dev.voiceagent.application.call.ExternalPbxCall;
import dev.voiceagent.application.call.Transfer;
import dev.voiceagent.application.conversation.ConversationModels;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.out.CallCheckpoint;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.application.voice.runtime.port.out.VoiceRunStore;
import dev.voiceagent.application.voice.runtime.session.Ended;
import dev.voiceagent.application.voice.runtime.session.ProviderShares;
import dev.voiceagent.application.workflow.RunCompletions;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.ChatRuns;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import dev.voiceagent.domain.conversation.FeedbackEvents;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.storage.ObjectKeys;
import dev.voiceagent.domain.telephony.ExternalPbxCalls;
import dev.voiceagent.domain.voice.TurnTaking;
import dev.voiceagent.domain.voice.VoicemailDetection;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The calls that talk on this replica, and the one place a call is finished. A live call is registered (the autoscale
 * metric counts it, a draining replica hands it over), says every few seconds that this replica holds it, and keeps a
 * checkpoint after each turn. When it ends, whatever ended it: a transfer is handed to the carrier, a call the agent
 * ended is hung up at the carrier too, and the run keeps what the call left (the gathered values, the disposition,
 * usage, the recording, the transcript and the log), run.completed going out once whoever completes the run; a call
 * that reached a voicemail is reported to the call ledger for a campaign's retries. A call that moved to another
 * replica is released, and one that never had a session is finished with the reason.
 */
@Singleton
public class CallCompletion {

    private static final System.Logger LOG = System.getLogger(CallCompletion.class.getName());
    /**
     * How often a live call says its replica still holds it (well inside {@link VoiceRunStore#STALE}), and reads what
     * the carrier's answering-machine detection reported to another replica.
     */
    static final Duration HEARTBEAT = Duration.ofSeconds(5);
    static final String TRANSFER_FAILED = "transfer_call_failed";
    /** How long a whisper recording's address is good for: the transfer rings at most 120 s. */
    static final Duration WHISPER_URL_TTL = Duration.ofMinutes(10);

    /**
     * The models a call runs on: the language models (the speech-to-speech model), its ears and voices, each stage's
     * configured one first and then its fallbacks; usage names the configured ones (the fallbacks' shares are in the
     * session's end).
     */
    public record CallModels(List<ModelEndpoint> llms, List<ModelEndpoint> stts, List<ModelEndpoint> ttss,
            boolean realtime) {

        public CallModels {
            llms = List.copyOf(llms);
            stts = List.copyOf(stts);
            ttss = List.copyOf(ttss);
        }

        /** A speech-to-speech call's: one model hears, answers and speaks. */
        public static CallModels speechToSpeech(ModelEndpoint model) {
            return new CallModels(List.of(model), List.of(), List.of(), true);
        }

        public ModelEndpoint llm() {
            return llms.getFirst();
        }

        public ModelEndpoint stt() {
            return stts.isEmpty() ? null : stts.getFirst();
        }

        public ModelEndpoint tts() {
            return ttss.isEmpty() ? null : ttss.getFirst();
        }
    }

    /**
     * A call of this replica: what finishing it needs. It is {@link #live} once its session connected, and finished
     * once, when the session ended ({@link #ended}) or moved ({@link #moved}).
     */
    public final class LiveCall {
        private final Admitted admitted;
        private final CallModels models;
        private final MediaChannel media;
        private final CallLoop loop;
        private final CallRecorder.Recording recording;
        private AutoCloseable heartbeat;
        private boolean over;

        private LiveCall(Admitted admitted, CallModels models, MediaChannel media, CallLoop loop,
                CallRecorder.Recording recording) {
            this.admitted = admitted;
            this.models = models;
            this.media = media;
            this.loop = loop;
            this.recording = recording;
        }

        /**
         * The call's session connected: it is registered on this replica ({@code handle}: what can be asked of it)
         * and its heartbeat starts, which also reads the carrier's answering-machine verdict another replica
         * received. A verdict stored before the call was registered is read at once (the carrier may report it
         * before the media starts).
         */
        public void live(VoiceSessions.Handle handle) {
            if (over) {
                return;
            }
            long runId = admitted.runId();
            sessions.add(runId, admitted.run().mode(), handle);
            heartbeat = loop.every(HEARTBEAT, () -> beat(runId, handle.carrierAmd()));
            beat(runId, handle.carrierAmd());
        }

        private void over() {
            over = true;
            sessions.remove(admitted.runId());
            if (heartbeat != null) {
                close(heartbeat);
            }
        }

        /** Where the call stands after a finished turn, kept on its run while this replica holds its media. */
        public void checkpoint(CallCheckpoint checkpoint) {
            runs.checkpoint(admitted.runId(), checkpoint).subscribe().with(ok -> { },
                    f -> LOG.log(Level.DEBUG, "checkpoint of run {0}: {1}", admitted.runId(), f.toString()));
        }

        /**
         * The call left this replica for another (it drains, or the carrier's stream broke): its checkpoint is kept
         * and its media released for the carrier's next stream; its run is not finished here.
         */
        public void moved(CallCheckpoint checkpoint) {
            over();
            runs.release(admitted.runId(), checkpoint).subscribe().with(
                    ok -> LOG.log(Level.DEBUG, "run {0} let go for another replica", admitted.runId()),
                    f -> LOG.log(Level.WARNING, "run {0} not released: {1}", admitted.runId(), f.toString()));
        }

        /** The call's session ended here: the call is finished (see {@link CallCompletion}). */
        public void ended(Ended ended) {
            over();
            if (Ended.TRANSFER.equals(ended.reason())) {
                transfer(this, ended).subscribe().with(outcome -> finish(this, outcome),
                        failure -> finish(this, ended));
                return;
            }
            if (!TurnTaking.USER_HANGUP.equals(ended.reason())) { // the agent ended it: the carrier ends it too
                carrier.hangUp(admitted.organizationId(), admitted.runId()).subscribe().with(ok -> { },
                        f -> LOG.log(Level.DEBUG, "hang-up of run {0} at the carrier: {1}", admitted.runId(),
                                f.toString()));
            }
            finish(this, ended);
        }
    }

    private final VoiceRunStore runs;
    private final RunCompletions completions;
    private final WorkflowRepository workflows;
    private final ObjectStore objects;
    private final CarrierCalls carrier;
    private final RecordedPrompts prompts;
    private final VoiceSessions sessions;

    public CallCompletion(VoiceRunStore runs, WorkflowRepository workflows, ObjectStore objects,
            CarrierCalls carrier, RecordedPrompts prompts, VoiceSessions sessions) {
        this.runs = runs;
        this.completions = new RunCompletions(workflows);
        this.workflows = workflows;
        this.objects = objects;
        this.carrier = carrier;
        this.prompts = prompts;
        this.sessions = sessions;
    }

    /** A call whose session is about to start here, on these models, its media and loop, its recording. */
    public LiveCall call(Admitted admitted, CallModels models, MediaChannel media, CallLoop loop,
            CallRecorder.Recording recording) {
        return new LiveCall(admitted, models, media, loop, recording);
    }

    private void beat(long runId, Consumer<String> carrierAmd) {
        runs.heartbeatAndAmd(runId, Instant.now()).subscribe().with(amd -> amd.ifPresent(carrierAmd),
                f -> LOG.log(Level.WARNING, "heartbeat of run {0}: {1}", runId, f.toString()));
    }

    /**
     * Hands the call to the transfer tool's destination through the carrier's API, then lets the media go; when the
     * carrier refuses (or the destination is only known at call time), the call ends as transfer_call_failed with the
     * reason. The caller heard the transfer's message before this (the session waits for its last mark).
     */
    private Uni<Ended> transfer(LiveCall call, Ended ended) {
        Admitted admitted = call.admitted;
        Map<String, Object> details = ended.endDetails();
        Object destination = details.get("destination");
        int timeout = details.get("timeout") instanceof Number n ? n.intValue() : 30;
        String whisper = details.get("whisper_message") instanceof String w ? w : null;
        Uni<String> whisperAudio = details.get("whisper_recording_id") instanceof String id
                ? prompts.publicUrl(admitted.organizationId(), id, WHISPER_URL_TTL).onFailure().recoverWithItem(f -> {
                    LOG.log(Level.WARNING, "run {0}: the whisper recording {1} is not played: {2}",
                            admitted.runId(), id, f.getMessage());
                    return null;
                }) : Uni.createFrom().nullItem();
        Uni<ExternalPbxCall> pbx = externalPbx(admitted, finished(admitted.run(), call.models, ended, null, null));
        Uni<Void> handed = destination instanceof String to && !to.isBlank()
                ? Uni.combine().all().unis(whisperAudio, pbx).asTuple().chain(both -> carrier.transfer(
                        admitted.organizationId(), new Transfer(admitted.runId(), to, timeout, whisper,
                                both.getItem1(), both.getItem2())))
                : Uni.createFrom().failure(new IllegalStateException(details.get("destination_problem")
                        instanceof String problem ? problem : "the transfer has no destination"));
        return handed.map(ok -> {
            call.loop.execute(() -> call.media.close(Ended.TRANSFER)); // the carrier has the call: its stream ends
            return ended;
        }).onFailure().recoverWithItem(failure -> {
            String reason = "The call could not be transferred: " + failure.getMessage();
            LOG.log(Level.WARNING, "run {0}: {1}", admitted.runId(), reason);
            call.loop.execute(() -> call.media.close(TRANSFER_FAILED));
            return ended.as(TRANSFER_FAILED, reason);
        });
    }

    /** The media of an admitted call ended before its session started: the run completes with the reason. */
    public Uni<Void> endUnstarted(Admitted admitted, String reason) {
        Instant now = Instant.now();
        return finishUnstarted(admitted, ChatRuns.completed(admitted.run(), reason, now),
                new FeedbackEvent.CallEnded(reason), now);
    }

    /** The call could not start (a model the runtime cannot use, a workflow gone): the run ends with the reason. */
    public Uni<Void> refuse(Admitted admitted, MediaChannel media, CallLoop loop, Throwable failure) {
        String reason = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        LOG.log(Level.WARNING, "voice session of run {0} not started: {1}", admitted.runId(), reason);
        Instant now = Instant.now();
        FeedbackEvent why = FeedbackEvent.PipelineError.fatal(reason);
        loop.execute(() -> {
            media.feedback(FeedbackEvents.event(why, now, 0)); // a browser shows why (the dashboard's pipeline error)
            media.close(Ended.PIPELINE_ERROR);
        });
        return finishUnstarted(admitted, ChatRuns.completed(admitted.run().withError(reason),
                Ended.PIPELINE_ERROR, now), why, now);
    }

    /** A call that never had a session: its run finished as {@code ended}, with one event saying why. */
    private Uni<Void> finishUnstarted(Admitted admitted, WorkflowRun ended, FeedbackEvent why, Instant now) {
        return completions.events(false, ended, now)
                .chain(events -> runs.finish(ended, List.of(FeedbackEvents.event(why, now, 0)), events, now))
                .replaceWithVoid()
                .onFailure().invoke(f -> LOG.log(Level.WARNING, "run {0} not finished: {1}", admitted.runId(),
                        f.toString()))
                .onFailure().recoverWithNull();
    }

    private void finish(LiveCall call, Ended ended) {
        Admitted admitted = call.admitted;
        long org = admitted.organizationId();
        String transcriptKey = ObjectKeys.transcript(org, admitted.runId());
        Uni<String> recorded = call.recording.finish().onFailure().invoke(f -> LOG.log(Level.WARNING,
                "recording of run {0} not stored: {1}", admitted.runId(), f.toString())).onFailure().recoverWithNull();
        Uni<String> transcribed = objects.put(transcriptKey, transcript(ended.conversation()),
                        "text/plain; charset=utf-8").replaceWith(transcriptKey)
                .onFailure().invoke(f -> LOG.log(Level.WARNING, "transcript of run {0} not stored: {1}",
                        admitted.runId(), f.toString())).onFailure().recoverWithNull();
        Uni.combine().all().unis(recorded, transcribed).asTuple()
                .map(keys -> finished(admitted.run(), call.models, ended, keys.getItem1(), keys.getItem2()))
                .chain(finished -> completions.events(false, finished, ended.endedAt())
                        .chain(events -> runs.finish(finished, ended.events(), events, ended.endedAt()))
                        .call(() -> Ended.TRANSFER.equals(ended.reason()) ? Uni.createFrom().voidItem()
                                : endExternalPbxCall(admitted, finished)))
                .subscribe().with(done -> {
                    LOG.log(Level.DEBUG, "run {0} finished: {1}", admitted.runId(), ended.reason());
                    if (VoicemailDetection.DISPOSITION.equals(ended.reason())
                            || FeedbackEvents.carrierHeardMachine(ended.events())) {
                        reportVoicemail(admitted.runId(), ended); // a machine the workflow did not detect included
                    }
                }, failure -> LOG.log(Level.WARNING, "run {0} not finished: {1}", admitted.runId(),
                        failure.toString()));
    }

    /**
     * The PBX's identity of a call that came through one and the lead fields its workflow maps from what the run
     * gathered (the published version's external_pbx_field_mappings); null for any other call.
     */
    private Uni<ExternalPbxCall> externalPbx(Admitted admitted, WorkflowRun run) {
        var identity = ExternalPbxCalls.identity(run.initialContext());
        if (identity.isEmpty()) {
            return Uni.createFrom().nullItem();
        }
        return workflows.find(admitted.organizationId(), admitted.workflowId())
                .map(workflow -> ExternalPbxCalls.fields(run.gatheredContext(), workflow.map(w -> w.published()
                        .configurations()).orElse(Map.of())))
                .onFailure().recoverWithItem(Map.of())
                .map(fields -> new ExternalPbxCall(identity.get(), fields));
    }

    /** A call that came through an external PBX ended here: the PBX gets its lead fields and hangs the call up. */
    private Uni<Void> endExternalPbxCall(Admitted admitted, WorkflowRun finished) {
        return externalPbx(admitted, finished).chain(pbx -> pbx == null ? Uni.createFrom().voidItem()
                        : carrier.endExternalPbxCall(admitted.organizationId(), admitted.runId(), pbx))
                .onFailure().invoke(f -> LOG.log(Level.WARNING, "run {0}: the external PBX not told the call ended:"
                        + " {1}", admitted.runId(), f.getMessage()))
                .onFailure().recoverWithNull();
    }

    /** The call reached a voicemail: its attempt in the call ledger ends so, where a campaign's retry sees it. */
    private void reportVoicemail(long runId, Ended ended) {
        int seconds = ended.connectedAt() == null ? 0
                : (int) Duration.between(ended.connectedAt(), ended.endedAt()).toSeconds();
        carrier.voicemail(runId, seconds).subscribe().with(ok -> { },
                f -> LOG.log(Level.WARNING, "voicemail of run {0} not reported: {1}", runId, f.toString()));
    }

    /** The run as the call left it: values gathered, disposition, usage, and where its recording and transcript are. */
    private static WorkflowRun finished(WorkflowRun run, CallModels models, Ended ended, String recordingKey,
            String transcriptKey) {
        ProviderShares shares = ended.shares();
        TokenUsage fallbackTokens = shares.tokens().values().stream().reduce(TokenUsage.ZERO, TokenUsage::plus);
        WorkflowRun after = ChatRuns.afterTurn(run, ended.conversation(), ended.tokens().minus(fallbackTokens),
                ConversationModels.key(models.llm()), ended.endedAt());
        for (Map.Entry<String, TokenUsage> served : shares.tokens().entrySet()) {
            after = ChatRuns.withTokens(after, served.getKey(), served.getValue());
        }
        if (ended.failure() != null) {
            after = after.withError(ended.failure());
        }
        WorkflowRun completed = ChatRuns.completed(after, ended.reason(), ended.endedAt());
        Map<String, Object> usage = new LinkedHashMap<>(completed.usageInfo());
        usage.put("call_duration_seconds", ended.connectedAt() == null ? 0.0
                : Duration.between(ended.connectedAt(), ended.endedAt()).toMillis() / 1000.0);
        if (models.realtime()) { // one model heard and spoke: its tokens are under llm, its audio here
            usage.put("realtime", Map.of(ConversationModels.key(models.llm()), Map.of("audio_seconds",
                    seconds(ended.speechSeconds()), "characters", ended.spokenCharacters())));
        } else { // the configured provider served what its fallbacks did not
            Map<String, Object> stt = new LinkedHashMap<>();
            double byFallbacks = shares.speechSeconds().values().stream().mapToDouble(Double::doubleValue).sum();
            stt.put(ConversationModels.key(models.stt()), Map.of("audio_seconds",
                    seconds(Math.max(0, ended.speechSeconds() - byFallbacks))));
            shares.speechSeconds().forEach((key, s) -> stt.put(key, Map.of("audio_seconds", seconds(s))));
            usage.put("stt", stt);
            Map<String, Object> tts = new LinkedHashMap<>();
            long spokenByFallbacks = shares.characters().values().stream().mapToLong(Long::longValue).sum();
            tts.put(ConversationModels.key(models.tts()), Map.of("characters",
                    Math.max(0, ended.spokenCharacters() - spokenByFallbacks)));
            shares.characters().forEach((key, c) -> tts.put(key, Map.of("characters", c)));
            usage.put("tts", tts);
        }
        return completed.withArtifacts(recordingKey, transcriptKey, usage);
    }

    private static double seconds(double s) {
        return Math.round(s * 100) / 100.0;
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

    private static void close(AutoCloseable timer) {
        try {
            timer.close();
        } catch (Exception ignored) {
            // a loop's timer: nothing to release
        }
    }
}
