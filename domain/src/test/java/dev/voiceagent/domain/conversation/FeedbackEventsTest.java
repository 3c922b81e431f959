package dev.voiceagent.domain.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.voiceagent.domain.conversation.FeedbackEvent.BotStartedSpeaking;
import dev.voiceagent.domain.conversation.FeedbackEvent.BotStoppedSpeaking;
import dev.voiceagent.domain.conversation.FeedbackEvent.BotText;
import dev.voiceagent.domain.conversation.FeedbackEvent.CallEnded;
import dev.voiceagent.domain.conversation.FeedbackEvent.CallMoved;
import dev.voiceagent.domain.conversation.FeedbackEvent.CallResumed;
import dev.voiceagent.domain.conversation.FeedbackEvent.CarrierAmd;
import dev.voiceagent.domain.conversation.FeedbackEvent.Engine;
import dev.voiceagent.domain.conversation.FeedbackEvent.EventsDropped;
import dev.voiceagent.domain.conversation.FeedbackEvent.Interruption;
import dev.voiceagent.domain.conversation.FeedbackEvent.LatencyMeasured;
import dev.voiceagent.domain.conversation.FeedbackEvent.PipelineError;
import dev.voiceagent.domain.conversation.FeedbackEvent.Said;
import dev.voiceagent.domain.conversation.FeedbackEvent.Stage;
import dev.voiceagent.domain.conversation.FeedbackEvent.TimeToFirstByte;
import dev.voiceagent.domain.conversation.FeedbackEvent.UserDtmf;
import dev.voiceagent.domain.conversation.FeedbackEvent.UserMute;
import dev.voiceagent.domain.conversation.FeedbackEvent.UserTranscription;
import dev.voiceagent.domain.conversation.FeedbackEvent.VoicemailDetected;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one mapping to the reference dashboard's real-time feedback: each event's rtf-* type and the payload fields its
 * dashboard, run page and QA read (pipecat's RealtimeFeedbackType and the reference's realtime_feedback_events.py
 * builders), and which events the run's log keeps.
 */
class FeedbackEventsTest {

    private static Map<String, Object> payload(FeedbackEvent e) {
        return FeedbackEvents.payload(e);
    }

    @Test
    void theCallersWordsAndTheAgentsAreTheReferencesTranscriptionAndBotTextWithWhereTheyCameFrom() {
        assertThat(FeedbackEvents.type(new UserTranscription("Hi", true))).isEqualTo("rtf-user-transcription");
        assertThat(payload(new UserTranscription("Hi", false))).containsExactly(entry("text", "Hi"),
                entry("final", false));
        assertThat(FeedbackEvents.type(new BotText("Hello."))).isEqualTo("rtf-bot-text");
        assertThat(payload(new BotText("Hello."))).containsExactly(entry("text", "Hello."));
        assertThat(payload(new BotText("Hi, it's Ann.", Said.RECORDING))).containsEntry("recording", true);
        assertThat(payload(new BotText("Please call us back.", Said.VOICEMAIL))).containsEntry("voicemail", true);
        assertThat(FeedbackEvents.type(new UserDtmf("5"))).isEqualTo("rtf-user-dtmf");
        assertThat(payload(new UserDtmf("5"))).containsExactly(entry("digit", "5"));
    }

    @Test
    void speakingAndMuteAreShownLiveOnlyAndAnInterimTranscriptIsNotKept() {
        assertThat(FeedbackEvents.type(new BotStartedSpeaking())).isEqualTo("rtf-bot-started-speaking");
        assertThat(FeedbackEvents.type(new BotStoppedSpeaking(true))).isEqualTo("rtf-bot-stopped-speaking");
        assertThat(payload(new BotStoppedSpeaking(false))).isEmpty();
        assertThat(payload(new BotStoppedSpeaking(true))).containsExactly(entry("interrupted", true));
        assertThat(FeedbackEvents.type(new UserMute(true))).isEqualTo("rtf-user-mute-started");
        assertThat(FeedbackEvents.type(new UserMute(false))).isEqualTo("rtf-user-mute-stopped");
        assertThat(List.<FeedbackEvent>of(new BotStartedSpeaking(), new BotStoppedSpeaking(false), new UserMute(true),
                new UserTranscription("wh", false))).noneMatch(FeedbackEvent::kept);
        assertThat(List.<FeedbackEvent>of(new UserTranscription("Where is it?", true), new BotText("Here."),
                PipelineError.warning("slow"), new CallEnded("user_hangup"))).allMatch(FeedbackEvent::kept);
    }

    @Test
    void latencyCarriesTheReferencesSecondsAndThePipelinesStagesAndTimeToFirstByteItsProcessor() {
        Map<String, Object> pipeline = payload(LatencyMeasured.pipeline(Duration.ofMillis(640),
                Duration.ofMillis(210), null));
        assertThat(FeedbackEvents.type(LatencyMeasured.speechToSpeech(Duration.ZERO)))
                .isEqualTo("rtf-latency-measured");
        assertThat(pipeline).containsExactly(entry("kind", "voice_latency_breakdown"), entry("latency_seconds", 0.64),
                entry("user_stop_to_bot_started_ms", 640L), entry("llm_first_text_ms", 210L),
                entry("tts_first_audio_ms", null));
        assertThat(payload(LatencyMeasured.speechToSpeech(Duration.ofMillis(500))))
                .containsEntry("speech_to_speech", true).doesNotContainKey("llm_first_text_ms");
        TimeToFirstByte ttfb = new TimeToFirstByte(Duration.ofMillis(350), Stage.LLM, "gpt-4o-mini");
        assertThat(FeedbackEvents.type(ttfb)).isEqualTo("rtf-ttfb-metric");
        assertThat(payload(ttfb)).containsExactly(entry("ttfb_seconds", 0.35), entry("processor", "llm"),
                entry("model", "gpt-4o-mini"));
    }

    @Test
    void anInterruptionSaysWhatWasHeardAndAPipelineErrorHasTheReferencesErrorAndFatal() {
        assertThat(payload(new Interruption("It ships", 820, 130L, false))).containsExactly(
                entry("heard_text", "It ships"), entry("heard_ms", 820L), entry("barge_in_ms", 130L));
        assertThat(payload(new Interruption("It", 300, null, true))).containsEntry("speech_to_speech", true)
                .doesNotContainKey("barge_in_ms");
        assertThat(FeedbackEvents.type(PipelineError.fatal("x"))).isEqualTo("rtf-pipeline-error");
        assertThat(payload(PipelineError.fatal("language model: HTTP 500"))).containsExactly(
                entry("message", "language model: HTTP 500"), entry("error", "language model: HTTP 500"),
                entry("fatal", true));
        assertThat(payload(PipelineError.warning("no verdict"))).containsEntry("fatal", false);
    }

    @Test
    void theCallsOwnEventsAndTheEnginesKeepTheirTypes() {
        assertThat(FeedbackEvents.type(new CarrierAmd("MACHINE_AFTER_GREETING"))).isEqualTo("rtf-carrier-amd");
        assertThat(payload(new CarrierAmd("MACHINE_AFTER_GREETING")))
                .containsExactly(entry("answered_by", "machine_after_greeting"));
        assertThat(payload(new VoicemailDetected("classifier", "leave_message")))
                .containsExactly(entry("detected_by", "classifier"), entry("action", "leave_message"));
        assertThat(FeedbackEvents.type(new CallMoved("handed_over"))).isEqualTo("rtf-call-moved");
        assertThat(payload(new CallResumed("Where were we?", 2))).containsExactly(entry("text", "Where were we?"),
                entry("moves", 2));
        assertThat(FeedbackEvents.type(new CallEnded("user_hangup"))).isEqualTo("rtf-call-ended");
        assertThat(FeedbackEvents.type(new EventsDropped(3))).isEqualTo("rtf-events-dropped");
        TurnEvent transition = new TurnEvent(TurnEvent.NODE_TRANSITION, Map.of("node_id", "2"));
        assertThat(FeedbackEvents.type(new Engine(transition))).isEqualTo("rtf-node-transition");
        assertThat(payload(new Engine(transition))).containsExactly(entry("node_id", "2"));
        assertThat(FeedbackEvents.type(new Engine(new TurnEvent(TurnEvent.TOOL_CALL_STARTED, Map.of()))))
                .isEqualTo("rtf-function-call-start");
        assertThat(FeedbackEvents.type(new Engine(new TurnEvent(TurnEvent.SESSION_END, Map.of()))))
                .isEqualTo("rtf-call-ended");
        assertThat(FeedbackEvents.type(new Engine(new TurnEvent(TurnEvent.MODEL_CALL_LIMIT, Map.of()))))
                .isEqualTo("rtf-model-call-limit");
    }

    @Test
    void anEventAsLoggedHasItsTypeTimestampTurnAndPayloadAndAMachineVerdictIsReadBack() {
        Map<String, Object> logged = FeedbackEvents.event(new CarrierAmd("MACHINE"),
                Instant.parse("2026-11-27T10:00:00Z"), 2);
        assertThat(logged).containsExactly(entry("type", "rtf-carrier-amd"),
                entry("timestamp", "2026-11-27T10:00:00Z"), entry("turn", 2),
                entry("payload", Map.of("answered_by", "machine")));
        assertThat(FeedbackEvents.carrierHeardMachine(List.of(logged))).isTrue();
        assertThat(FeedbackEvents.carrierHeardMachine(List.of(FeedbackEvents.event(new CarrierAmd("HUMAN"),
                Instant.EPOCH, 1)))).isFalse();
        assertThat(FeedbackEvents.carrierHeardMachine(List.of(FeedbackEvents.event(new CarrierAmd("FAX"),
                Instant.EPOCH, 1)))).isTrue();
    }
}
