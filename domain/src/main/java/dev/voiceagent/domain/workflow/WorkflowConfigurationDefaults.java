package dev.voiceagent.domain.workflow;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an agent's configuration starts from when a field is not set: call length and idle limits,
 * turn taking, the text chat's inactivity timeout and the embed widget's visitor-facing texts.
 */
public final class WorkflowConfigurationDefaults {

    public static final int MAX_CALL_DURATION_SECONDS = 300;
    public static final int MAX_CALL_DURATION_LIMIT_SECONDS = 1200;
    public static final double MAX_USER_IDLE_TIMEOUT_SECONDS = 10.0;
    public static final int TEXT_CHAT_INACTIVITY_DEFAULT_SECONDS = 1800;
    /** The ambient sound's volume when the configuration does not say (the reference's). */
    public static final double AMBIENT_NOISE_VOLUME = 0.3;
    public static final int TEXT_CHAT_INACTIVITY_MIN_SECONDS = 60;
    public static final int TEXT_CHAT_INACTIVITY_MAX_SECONDS = 10500;

    /** Every field with its default, in the reference's order. */
    public static final Map<String, Object> CONFIGURATION;
    /** The text chat's inactivity timeout bounds. */
    public static final Map<String, Object> TEXT_CHAT_INACTIVITY;
    /** Every visitor-facing string the embed widget renders. */
    public static final Map<String, Object> WIDGET_TEXTS;

    static {
        Map<String, Object> ambient = new LinkedHashMap<>();
        ambient.put("enabled", false);
        ambient.put("volume", AMBIENT_NOISE_VOLUME);
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("ambient_noise_configuration", Collections.unmodifiableMap(ambient));
        c.put("max_call_duration", MAX_CALL_DURATION_SECONDS);
        c.put("max_user_idle_timeout", MAX_USER_IDLE_TIMEOUT_SECONDS);
        c.put("smart_turn_stop_secs", 2.0);
        c.put("turn_start_strategy", "default");
        c.put("turn_start_min_words", 3);
        c.put("provisional_vad_pause_secs", 1.5);
        c.put("turn_stop_strategy", "transcription");
        c.put("dictionary", "");
        c.put("context_compaction_enabled", false);
        c.put("text_chat_inactivity_timeout_seconds", TEXT_CHAT_INACTIVITY_DEFAULT_SECONDS);
        c.put("external_pbx_field_mappings", List.of());
        c.put("external_pbx_lead_headers", List.of());
        CONFIGURATION = Collections.unmodifiableMap(c);

        Map<String, Object> t = new LinkedHashMap<>();
        t.put("default_seconds", TEXT_CHAT_INACTIVITY_DEFAULT_SECONDS);
        t.put("minimum_seconds", TEXT_CHAT_INACTIVITY_MIN_SECONDS);
        t.put("maximum_seconds", TEXT_CHAT_INACTIVITY_MAX_SECONDS);
        TEXT_CHAT_INACTIVITY = Collections.unmodifiableMap(t);

        Map<String, Object> w = new LinkedHashMap<>();
        w.put("endChatText", "End chat");
        w.put("conversationEndedText", "Conversation ended.");
        w.put("startNewChatText", "Start new chat");
        w.put("chatRetryText", "Retry");
        w.put("chatInputPlaceholder", "Type a message\u2026");
        w.put("sendMessageLabel", "Send message");
        w.put("closeChatLabel", "Close chat");
        w.put("voiceConnectingText", "Connecting\u2026");
        w.put("voiceEndCallText", "End Call");
        w.put("voiceRetryText", "Retry");
        w.put("voiceReadyTitle", "Ready to Connect");
        w.put("voiceConnectingSubtext", "Please wait while we establish the connection");
        w.put("voiceConnectedTitle", "Connected");
        w.put("voiceConnectedSubtext", "Your voice call is now active");
        w.put("voiceCallEndedTitle", "Call ended");
        w.put("voiceCallEndedSubtext", "Click below to start a new call");
        w.put("voiceConnectionFailedTitle", "Connection failed");
        w.put("voiceConnectionFailedSubtext", "Please check your microphone and try again");
        w.put("voiceConnectionLostTitle", "Connection lost");
        w.put("voiceConnectionLostSubtext", "The call has been disconnected");
        WIDGET_TEXTS = Collections.unmodifiableMap(w);
    }

    private WorkflowConfigurationDefaults() {
    }
}
