package dev.voiceagent.domain.conversation;

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
import dev.voiceagent.domain.conversation.FeedbackEvent.ProviderSwitched;
import dev.voiceagent.domain.conversation.FeedbackEvent.TimeToFirstByte;
import dev.voiceagent.domain.conversation.FeedbackEvent.UserDtmf;
import dev.voiceagent.domain.conversation.FeedbackEvent.UserMute;
import dev.voiceagent.domain.conversation.FeedbackEvent.UserTranscription;
import dev.voiceagent.domain.conversation.FeedbackEvent.VoicemailDetected;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one mapping of a conversation's {@link FeedbackEvent}s to the reference's real-time feedback: each event is
 * {type, timestamp, turn, payload} with the rtf-* type and the payload fields its dashboard and run page read (kept in
 * the run's logs.realtime_feedback_events, sent live to a browser's call). Readers of a log (a voice replay, the run
 * page's figures) name the types by the constants here.
 */
public final class FeedbackEvents {

    /** Where a run keeps its events: logs.realtime_feedback_events. */
    public static final String KEY = "realtime_feedback_events";

    public static final String USER_TRANSCRIPTION = "rtf-user-transcription";
    public static final String USER_DTMF = "rtf-user-dtmf";
    public static final String BOT_TEXT = "rtf-bot-text";
    public static final String BOT_STARTED_SPEAKING = "rtf-bot-started-speaking";
    public static final String BOT_STOPPED_SPEAKING = "rtf-bot-stopped-speaking";
    public static final String USER_MUTE_STARTED = "rtf-user-mute-started";
    public static final String USER_MUTE_STOPPED = "rtf-user-mute-stopped";
    public static final String LATENCY_MEASURED = "rtf-latency-measured";
    public static final String TTFB_METRIC = "rtf-ttfb-metric";
    public static final String INTERRUPTION = "rtf-interruption";
    public static final String CARRIER_AMD = "rtf-carrier-amd";
    public static final String VOICEMAIL_DETECTED = "rtf-voicemail-detected";
    public static final String CALL_MOVED = "rtf-call-moved";
    public static final String CALL_RESUMED = "rtf-call-resumed";
    public static final String PIPELINE_ERROR = "rtf-pipeline-error";
    /** This service's own: a stage switched to its fallback provider (the reference has no fallbacks). */
    public static final String PROVIDER_SWITCHED = "rtf-provider-switched";
    public static final String NODE_TRANSITION = "rtf-node-transition";
    public static final String FUNCTION_CALL_START = "rtf-function-call-start";
    public static final String FUNCTION_CALL_END = "rtf-function-call-end";
    public static final String VARIABLES_EXTRACTED = "rtf-variables-extracted";
    public static final String CALL_ENDED = "rtf-call-ended";
    public static final String EVENTS_DROPPED = "rtf-events-dropped";
    /** The prefix of every type; an engine event the reference has no name for is this plus its own type. */
    private static final String PREFIX = "rtf-";

    private FeedbackEvents() {
    }

    /** The event's rtf-* type. */
    public static String type(FeedbackEvent event) {
        return switch (event) {
            case UserTranscription e -> USER_TRANSCRIPTION;
            case UserDtmf e -> USER_DTMF;
            case BotText e -> BOT_TEXT;
            case BotStartedSpeaking e -> BOT_STARTED_SPEAKING;
            case BotStoppedSpeaking e -> BOT_STOPPED_SPEAKING;
            case UserMute e -> e.muted() ? USER_MUTE_STARTED : USER_MUTE_STOPPED;
            case LatencyMeasured e -> LATENCY_MEASURED;
            case TimeToFirstByte e -> TTFB_METRIC;
            case Interruption e -> INTERRUPTION;
            case CarrierAmd e -> CARRIER_AMD;
            case VoicemailDetected e -> VOICEMAIL_DETECTED;
            case CallMoved e -> CALL_MOVED;
            case CallResumed e -> CALL_RESUMED;
            case PipelineError e -> PIPELINE_ERROR;
            case ProviderSwitched e -> PROVIDER_SWITCHED;
            case Engine e -> type(e.event());
            case CallEnded e -> CALL_ENDED;
            case EventsDropped e -> EVENTS_DROPPED;
        };
    }

    /** The feedback type of an engine event. */
    static String type(TurnEvent event) {
        return switch (event.type()) {
            case TurnEvent.NODE_TRANSITION -> NODE_TRANSITION;
            case TurnEvent.TOOL_CALL_STARTED -> FUNCTION_CALL_START;
            case TurnEvent.TOOL_CALL_RESULT -> FUNCTION_CALL_END;
            case TurnEvent.VARIABLES_EXTRACTED -> VARIABLES_EXTRACTED;
            case TurnEvent.SESSION_END -> CALL_ENDED;
            default -> PREFIX + event.type().replace('_', '-');
        };
    }

    /** The event's payload, its fields in the order the reference's readers have always seen them. */
    public static Map<String, Object> payload(FeedbackEvent event) {
        return switch (event) {
            case UserTranscription e -> fields("text", e.text(), "final", e.isFinal());
            case UserDtmf e -> fields("digit", e.digit());
            case BotText e -> switch (e.said()) {
                case SPOKEN -> fields("text", e.text());
                case RECORDING -> fields("text", e.text(), "recording", true);
                case VOICEMAIL -> fields("text", e.text(), "voicemail", true);
            };
            case BotStartedSpeaking e -> fields();
            case BotStoppedSpeaking e -> e.interrupted() ? fields("interrupted", true) : fields();
            case UserMute e -> fields();
            case LatencyMeasured e -> latency(e);
            case TimeToFirstByte e -> fields("ttfb_seconds", seconds(e.took()), "processor",
                    e.stage().name().toLowerCase(Locale.ROOT), "model", e.model());
            case Interruption e -> e.speechToSpeech()
                    ? fields("heard_text", e.heardText(), "heard_ms", e.heardMs(), "speech_to_speech", true)
                    : fields("heard_text", e.heardText(), "heard_ms", e.heardMs(), "barge_in_ms", e.bargeInMs());
            case CarrierAmd e -> fields("answered_by", e.answeredBy().toLowerCase(Locale.ROOT));
            case VoicemailDetected e -> fields("detected_by", e.detectedBy(), "action", e.action());
            case CallMoved e -> fields("reason", e.reason());
            case CallResumed e -> fields("text", e.text(), "moves", e.moves());
            // the reference's dashboard and QA read error and fatal; message is kept for this service's earlier logs
            case PipelineError e -> fields("message", e.message(), "error", e.message(), "fatal", e.fatal());
            case ProviderSwitched e -> fields("stage", e.stage(), "from", e.from(), "to", e.to(), "reason",
                    e.reason());
            case Engine e -> e.event().payload();
            case CallEnded e -> fields("reason", e.reason());
            case EventsDropped e -> fields("count", e.count());
        };
    }

    private static Map<String, Object> latency(LatencyMeasured e) {
        Map<String, Object> payload = fields("kind", "voice_latency_breakdown",
                // the reference's field (its QA metrics average it), then this service's breakdown
                "latency_seconds", seconds(e.userStopToBotStarted()),
                "user_stop_to_bot_started_ms", e.userStopToBotStarted().toMillis());
        if (e.speechToSpeech()) {
            payload.put("speech_to_speech", true);
        } else {
            payload.put("llm_first_text_ms", e.modelFirstText() == null ? null : e.modelFirstText().toMillis());
            payload.put("tts_first_audio_ms", e.voiceFirstAudio() == null ? null : e.voiceFirstAudio().toMillis());
        }
        return payload;
    }

    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }

    /** A payload in the order given: key, value, key, value, ... (null values kept, as the readers see them). */
    private static Map<String, Object> fields(Object... keysAndValues) {
        Map<String, Object> payload = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            payload.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return payload;
    }

    /** The event as a log keeps it and a browser gets it: {type, timestamp, turn, payload}. */
    public static Map<String, Object> event(FeedbackEvent event, Instant at, int turn) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", type(event));
        out.put("timestamp", at.toString());
        out.put("turn", turn);
        out.put("payload", payload(event));
        return out;
    }

    /**
     * Whether a call's log says the carrier's answering-machine detection heard a machine (or a fax): the call then
     * reached a voicemail whatever the workflow did about it.
     */
    public static boolean carrierHeardMachine(List<Map<String, Object>> events) {
        for (Map<String, Object> e : events) {
            if (CARRIER_AMD.equals(e.get("type")) && e.get("payload") instanceof Map<?, ?> payload
                    && payload.get("answered_by") instanceof String answeredBy
                    && (answeredBy.startsWith("machine") || answeredBy.equals("fax"))) {
                return true;
            }
        }
        return false;
    }

    /** Whether a logged event is the agent's (its engine's transitions, functions and extractions, its words). */
    public static boolean agents(String type) {
        return type.equals(NODE_TRANSITION) || type.equals(VARIABLES_EXTRACTED) || type.equals(BOT_TEXT)
                || type.equals(FUNCTION_CALL_START) || type.equals(FUNCTION_CALL_END);
    }

    /** A text chat's turns (the active ones: a rewind forgets the rest) as feedback events, in order. */
    public static List<Map<String, Object>> of(List<ChatTurn> turns) {
        List<Map<String, Object>> events = new ArrayList<>();
        int n = 0;
        for (ChatTurn t : turns) {
            n++;
            if (t.userText() != null && !t.userText().isBlank()) {
                events.add(event(new UserTranscription(t.userText(), true), t.createdAt(), n));
            }
            Instant at = t.answeredAt() == null ? t.createdAt() : t.answeredAt();
            for (TurnEvent e : t.events()) {
                events.add(event(new Engine(e), at, n));
            }
            if (t.assistantText() != null && !t.assistantText().isBlank()) {
                events.add(event(new BotText(t.assistantText()), at, n));
            }
        }
        return events;
    }
}
