package dev.voiceagent.application.webhook;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;

/**
 * Out-port: one signed POST of an event (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature with a
 * "v1,..." signature per secret) through the outbound address guard. Never fails: the result says what happened.
 */
public interface WebhookSender {

    /**
     * @param status     the answer's status; null when there was none (refused, unreachable, timed out)
     * @param refused    the address guard refused the URL (not worth retrying)
     * @param retryAfter the answer's Retry-After, if any
     */
    record Result(Integer status, boolean refused, String error, long durationMs, String responseExcerpt,
            Duration retryAfter) {

        /** The first characters of an answer kept for the attempt's record. */
        public static final int EXCERPT = 500;

        /**
         * An answer: its body cut to {@link #EXCERPT} characters, its Retry-After header in seconds (an HTTP date
         * is not honoured: the schedule applies).
         */
        public static Result answered(int status, long durationMs, String body, String retryAfterHeader) {
            return new Result(status, false, null, durationMs,
                    body == null || body.length() <= EXCERPT ? body : body.substring(0, EXCERPT),
                    seconds(retryAfterHeader));
        }

        /** No answer: refused by the address guard (final) or not reached (retried). */
        public static Result unanswered(boolean refused, String error, long durationMs) {
            return new Result(null, refused, error, durationMs, null, null);
        }

        private static Duration seconds(String value) {
            if (value == null) {
                return null;
            }
            try {
                long seconds = Long.parseLong(value.strip());
                return seconds >= 0 ? Duration.ofSeconds(seconds) : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    Uni<Result> send(String url, String messageId, long timestampSeconds, String body, List<String> secrets);
}
