package dev.voiceagent.domain.voice;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.storage.ObjectKeys;
import dev.voiceagent.domain.workflow.WorkflowConfigurationDefaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a workflow's configuration (its version's {@code workflow_configurations}, the reference's fields and defaults)
 * says a call does: how long it may last ({@code max_call_duration}), how long the caller may stay silent before being
 * prompted ({@code max_user_idle_timeout}), how the caller takes the turn over the agent ({@code turn_start_strategy}:
 * default, voice activity, with the agent held until the caller's words show a turn; min_words, only once the
 * transcript has {@code turn_start_min_words} words, so a backchannel never does; provisional_vad, the agent held on
 * voice activity and resumed when no words follow within {@code provisional_vad_pause_secs}), how the caller's turn ends ({@code turn_stop_strategy}: transcription), and the words speech-to-text is
 * told to expect ({@code dictionary}, comma-separated), whether a long call's older turns are summarised
 * ({@code context_compaction_enabled}, see {@code ContextCompaction}), and the sound played under the agent's voice
 * ({@code ambient_noise_configuration}: enabled, volume, and the workflow's uploaded WAV file as {@code storage_key},
 * else a room tone; see {@link AmbientNoise}).
 *
 * <p>A setting no call can follow is refused when the workflow is saved ({@link #check}), with the reason: an
 * end-of-turn model ({@code turn_stop_strategy} turn_analyzer) is not offered by this runtime, an ambient sound must be
 * a WAV file of the organization's. A configuration stored before that check is read leniently ({@link #of}): what
 * cannot be followed falls back to the default.
 */
public record CallSettings(Duration maxDuration, Duration idle, TurnStart turnStart, int minWords,
        Duration provisionalPause, List<String> dictionary, boolean contextCompaction, AmbientNoise ambientNoise) {

    /**
     * The ambient sound a call plays under the agent's voice, from the first frame to the last, on the carrier's (or
     * browser's) audio and the recording's agent track.
     *
     * @param volume     from 0 to 1 (the reference's default 0.3)
     * @param storageKey the workflow's uploaded WAV file (ambient_noise/&lt;org&gt;/...), or null for the default room
     *                   tone
     */
    public record AmbientNoise(double volume, String storageKey) {
    }

    /** How the caller takes the turn while the agent speaks. */
    public enum TurnStart {
        /**
         * Voice activity: the caller speaking over the agent stops it at once; it resumes when their words were only
         * a backchannel, or none came (see {@link TurnTaking}).
         */
        DEFAULT,
        /** The transcript: only once the caller said {@link #minWords()} words (a backchannel never interrupts). */
        MIN_WORDS,
        /**
         * The reference's provisional voice activity: the agent is held on voice activity, interrupted when any words
         * are transcribed within {@link #provisionalPause()}, resumed otherwise.
         */
        PROVISIONAL_VAD
    }

    public static final CallSettings DEFAULTS = new CallSettings(
            Duration.ofSeconds(WorkflowConfigurationDefaults.MAX_CALL_DURATION_SECONDS),
            Duration.ofMillis((long) (WorkflowConfigurationDefaults.MAX_USER_IDLE_TIMEOUT_SECONDS * 1000)),
            TurnStart.DEFAULT, 3, Duration.ofMillis(1_500), List.of(), false, null);

    /** The longest idle timeout a call waits (an hour: longer is a call nobody hangs up). */
    static final double MAX_IDLE_SECONDS = 3_600;
    static final int MAX_MIN_WORDS = 20;
    /** The longest provisional pause: longer is an agent that stays silent on every cough. */
    static final double MAX_PROVISIONAL_PAUSE_SECONDS = 10;
    static final int MAX_DICTIONARY_TERMS = 100;
    static final int MAX_TERM_LENGTH = 100;

    public CallSettings {
        dictionary = List.copyOf(dictionary);
    }

    /** These settings' timings of turn-taking, the rest as {@code base} has them. */
    public TurnRules rules(TurnRules base) {
        return new TurnRules(base.transcriptWait(), base.bargeIn(), idle, base.idlePrompts(), maxDuration,
                base.hesitation());
    }

    /**
     * A call's settings from a stored configuration (null or partial: the defaults), leniently; an ambient file not in
     * the organization's area plays the default sound instead.
     */
    public static CallSettings of(Map<String, Object> configurations, long organizationId) {
        if (configurations == null) {
            return DEFAULTS;
        }
        List<String> problems = new ArrayList<>();
        CallSettings read = read(configurations, organizationId, problems);
        return read == null ? DEFAULTS : read;
    }

    /**
     * Refuses a configuration whose call settings a call of the organization could not follow, with every reason; a
     * configuration without them passes.
     */
    public static void check(Map<String, Object> configurations, long organizationId) {
        if (configurations == null) {
            return;
        }
        List<String> problems = new ArrayList<>();
        read(configurations, organizationId, problems);
        unsupported(configurations, problems);
        if (!problems.isEmpty()) {
            throw new DomainRuleViolation(String.join("; ", problems));
        }
    }

    private static CallSettings read(Map<String, Object> c, long organizationId, List<String> problems) {
        Duration maxDuration = DEFAULTS.maxDuration;
        Object max = c.get("max_call_duration");
        if (max != null) {
            if (max instanceof Number n && n.doubleValue() > 0
                    && n.doubleValue() <= WorkflowConfigurationDefaults.MAX_CALL_DURATION_LIMIT_SECONDS) {
                maxDuration = Duration.ofMillis(Math.round(n.doubleValue() * 1000));
            } else {
                problems.add("max_call_duration must be a number of seconds above 0 and at most "
                        + WorkflowConfigurationDefaults.MAX_CALL_DURATION_LIMIT_SECONDS);
            }
        }
        Duration idle = DEFAULTS.idle;
        Object idleSeconds = c.get("max_user_idle_timeout");
        if (idleSeconds != null) {
            if (idleSeconds instanceof Number n && n.doubleValue() > 0 && n.doubleValue() <= MAX_IDLE_SECONDS) {
                idle = Duration.ofMillis(Math.round(n.doubleValue() * 1000));
            } else {
                problems.add("max_user_idle_timeout must be a number of seconds above 0 and at most "
                        + (int) MAX_IDLE_SECONDS);
            }
        }
        TurnStart start = TurnStart.DEFAULT;
        Object strategy = c.get("turn_start_strategy");
        if (strategy != null) {
            switch (String.valueOf(strategy).toLowerCase(Locale.ROOT)) {
                case "default" -> start = TurnStart.DEFAULT;
                case "min_words" -> start = TurnStart.MIN_WORDS;
                case "provisional_vad" -> start = TurnStart.PROVISIONAL_VAD;
                default -> problems.add("turn_start_strategy must be default, min_words or provisional_vad");
            }
        }
        int minWords = DEFAULTS.minWords;
        Object words = c.get("turn_start_min_words");
        if (words != null) {
            if (words instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && n.intValue() >= 1
                    && n.intValue() <= MAX_MIN_WORDS) {
                minWords = n.intValue();
            } else {
                problems.add("turn_start_min_words must be a whole number from 1 to " + MAX_MIN_WORDS);
            }
        }
        Duration pause = DEFAULTS.provisionalPause;
        Object pauseSeconds = c.get("provisional_vad_pause_secs");
        if (pauseSeconds != null) {
            if (pauseSeconds instanceof Number n && n.doubleValue() > 0
                    && n.doubleValue() <= MAX_PROVISIONAL_PAUSE_SECONDS) {
                pause = Duration.ofMillis(Math.round(n.doubleValue() * 1000));
            } else {
                problems.add("provisional_vad_pause_secs must be a number of seconds above 0 and at most "
                        + (int) MAX_PROVISIONAL_PAUSE_SECONDS);
            }
        }
        Object stop = c.get("turn_stop_strategy");
        if (stop != null && !"transcription".equals(stop) && !"turn_analyzer".equals(stop)) {
            problems.add("turn_stop_strategy must be transcription or turn_analyzer");
        }
        List<String> dictionary = List.of();
        Object dict = c.get("dictionary");
        if (dict != null) {
            if (dict instanceof String s) {
                dictionary = terms(s, problems);
            } else {
                problems.add("dictionary must be a text of comma-separated words");
            }
        }
        Object compaction = c.get("context_compaction_enabled");
        if (compaction != null && !(compaction instanceof Boolean)) {
            problems.add("context_compaction_enabled must be true or false");
        }
        return new CallSettings(maxDuration, idle, start, minWords, pause, dictionary,
                Boolean.TRUE.equals(compaction), ambient(c.get("ambient_noise_configuration"), organizationId,
                        problems));
    }

    /** The ambient sound, or null when off; a file of another organization's, or not WAV, is a problem. */
    private static AmbientNoise ambient(Object configuration, long organizationId, List<String> problems) {
        if (configuration == null) {
            return null;
        }
        if (!(configuration instanceof Map<?, ?> ambient)) {
            problems.add("ambient_noise_configuration must be an object with enabled and volume");
            return null;
        }
        Object enabled = ambient.get("enabled");
        if (enabled != null && !(enabled instanceof Boolean)) {
            problems.add("ambient_noise_configuration.enabled must be true or false");
        }
        double volume = WorkflowConfigurationDefaults.AMBIENT_NOISE_VOLUME;
        Object v = ambient.get("volume");
        if (v != null) {
            if (v instanceof Number n && n.doubleValue() >= 0 && n.doubleValue() <= 1) {
                volume = n.doubleValue();
            } else {
                problems.add("ambient_noise_configuration.volume must be a number from 0 to 1");
            }
        }
        String key = null;
        Object k = ambient.get("storage_key");
        if (k != null && !(k instanceof String s && s.isBlank())) {
            if (!(k instanceof String s) || !ObjectKeys.inArea(s, ObjectKeys.AMBIENT_NOISE, organizationId)) {
                problems.add("ambient_noise_configuration.storage_key must be a file uploaded for this organization's"
                        + " ambient noise (POST /workflow/{id}/ambient-noise/upload-url)");
            } else if (!s.toLowerCase(Locale.ROOT).endsWith(".wav")) {
                problems.add("ambient_noise_configuration.storage_key: the ambient sound plays from a WAV file (16-bit"
                        + " PCM or mu-law, any rate): convert it (ffmpeg -i sound.mp3 -ac 1 sound.wav) and upload it"
                        + " again");
            } else {
                key = s;
            }
        }
        return Boolean.TRUE.equals(enabled) ? new AmbientNoise(volume, key) : null;
    }

    private static List<String> terms(String dictionary, List<String> problems) {
        List<String> terms = new ArrayList<>();
        for (String term : dictionary.split(",")) {
            String t = term.strip();
            if (t.isEmpty() || terms.contains(t)) {
                continue;
            }
            if (t.length() > MAX_TERM_LENGTH) {
                problems.add("dictionary: a term is at most " + MAX_TERM_LENGTH + " characters");
                continue;
            }
            terms.add(t);
        }
        if (terms.size() > MAX_DICTIONARY_TERMS) {
            problems.add("dictionary: at most " + MAX_DICTIONARY_TERMS + " terms");
            return terms.subList(0, MAX_DICTIONARY_TERMS);
        }
        return terms;
    }

    /** The settings this runtime cannot follow yet, when a configuration asks for them. */
    private static void unsupported(Map<String, Object> c, List<String> problems) {
        if ("turn_analyzer".equals(c.get("turn_stop_strategy"))) {
            problems.add("turn_stop_strategy turn_analyzer needs an end-of-turn model, which this installation does"
                    + " not have: use transcription (the caller's turn ends with the final transcript after voice"
                    + " activity stops)");
        }
    }
}
