package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * One stage's providers in the order a call uses them: the configured one, then the fallbacks its configuration names.
 * The call stays on a provider until it fails for good (its adapter's retries and reconnects spent), then goes on with
 * the next for the rest of the call; the switch is in the run's log and metrics, and what each fallback served is
 * kept for usage. On the call's loop only.
 *
 * @param <P> how the stage opens a provider
 * @param <U> what usage counts of the stage (seconds, characters, tokens)
 */
final class Providers<P, U> {

    private final String stage;
    private final List<P> all;
    private final Function<P, String> key;
    private final CallLog log;
    private final VoiceMetrics metrics;
    private final BinaryOperator<U> sum;
    private final Map<String, U> served = new LinkedHashMap<>();
    private int at;

    /** @param stage stt, llm or tts, as the log and metrics name it */
    Providers(String stage, List<P> all, Function<P, String> key, CallLog log, VoiceMetrics metrics,
            BinaryOperator<U> sum) {
        this.stage = stage;
        this.all = List.copyOf(all);
        this.key = key;
        this.log = log;
        this.metrics = metrics;
        this.sum = sum;
    }

    /** The provider the call uses now. */
    P current() {
        return all.get(at);
    }

    /** How usage names the provider the call uses now (provider/model). */
    String key() {
        return key.apply(current());
    }

    /** Which provider the call uses now, 0 for the configured one: events of another are late and not heard. */
    int at() {
        return at;
    }

    /** Whether another provider is left to switch to. */
    boolean hasNext() {
        return at + 1 < all.size();
    }

    /**
     * The current provider failed for good: the call goes on with the next one (false when none is left). What the
     * one left behind served ({@code used}) is kept for usage when it was a fallback.
     */
    boolean next(String why, U used) {
        if (!hasNext()) {
            return false;
        }
        serve(used);
        String from = key();
        at++;
        log.add(new FeedbackEvent.ProviderSwitched(stage, from, key(), why));
        metrics.providerSwitched(stage);
        return true;
    }

    /** Counts {@code amount} to the current provider when it is a fallback (the configured one's share is the rest). */
    void serve(U amount) {
        if (at > 0 && amount != null) {
            served.merge(key(), amount, sum);
        }
    }

    /** What the fallbacks served, with the current one's {@code open} amount (not yet counted) added. */
    Map<String, U> served(U open) {
        Map<String, U> out = new LinkedHashMap<>(served);
        if (at > 0 && open != null) {
            out.merge(key(), open, sum);
        }
        return out;
    }
}
