package dev.voiceagent.adapters.outbound;

import dev.voiceagent.application.conversation.ModelDelta;
import dev.voiceagent.application.conversation.ModelStreamBrokenException;
import dev.voiceagent.application.conversation.ModelUnavailableException;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;
import org.jboss.logging.Logger;

/**
 * One streamed chat completion, asked again while nothing of it came. A try fails before the answer when the provider
 * refuses with a 5xx, a 408 or a 429 (its Retry-After honoured within the budget), cannot be reached or drops the
 * connection, sends an error event, or sends no byte within the first-byte limit (its request is then reset); the
 * same request is then made again after the {@link RetryBudget}'s wait (with the account's next key), and a
 * {@link ModelDelta.Retrying} goes downstream before the wait. Once some of the answer's text went downstream, a
 * break is not asked again (the text would be said twice): it is a {@link ModelStreamBrokenException} with what was
 * given. When the budget is spent, or the failure is not worth another try (a refused key, a bad request, an address
 * the guard refuses), a {@link ModelUnavailableException} with the provider's message. Waits are Mutiny delays on its
 * worker pool, never on an event loop; every method holds this stream's lock.
 */
final class ChatStream {

    private static final Logger LOG = Logger.getLogger(ChatStream.class);

    private final GuardedHttp http;
    private final String provider;
    private final IntFunction<ChatTargets.Target> targets;
    private final String body;
    private final Duration timeout;
    private final Duration firstByte;
    private final RetryBudget budget;
    private final MultiEmitter<? super ModelDelta> emitter;
    private final StringBuilder given = new StringBuilder();
    private ChatCompletions.SseReply reply;
    private int attempt;
    private long firstFailure = -1;
    private boolean answering;
    private boolean ended;
    private Cancellable request;
    private Cancellable timer;

    /**
     * @param targets where try {@code n} (from 1) goes: the URL, headers and guard, with the key it uses
     */
    ChatStream(GuardedHttp http, String provider, IntFunction<ChatTargets.Target> targets, String body,
            Duration timeout, Duration firstByte, RetryBudget budget, MultiEmitter<? super ModelDelta> emitter) {
        this.http = http;
        this.provider = provider;
        this.targets = targets;
        this.body = body;
        this.timeout = timeout;
        this.firstByte = firstByte;
        this.budget = budget;
        this.emitter = emitter;
        emitter.onTermination(this::stop);
    }

    /** Makes the next try. */
    synchronized void start() {
        if (ended) {
            return;
        }
        int mine = ++attempt;
        reply = new ChatCompletions.SseReply(provider);
        answering = false;
        ChatTargets.Target target;
        try {
            target = targets.apply(mine);
        } catch (RuntimeException refused) { // a provider without the protocol: no request at all
            end();
            emitter.fail(refused);
            return;
        }
        timer = Uni.createFrom().voidItem().onItem().delayIt().by(firstByte).subscribe().with(v -> silent(mine));
        request = http.postStream(target.url(), target.headers(), body, timeout, target.guarded()).subscribe().with(
                chunk -> chunk(mine, chunk), failure -> failed(mine, failure), () -> completed(mine));
    }

    private synchronized void chunk(int mine, Buffer chunk) {
        if (mine != attempt || ended) {
            return;
        }
        if (!answering) {
            answering = true;
            cancelTimer();
        }
        List<ModelDelta> deltas;
        try {
            deltas = reply.feed(chunk);
        } catch (UpstreamServiceException said) { // an error event, or something that is not JSON
            cancelRequest();
            failed(mine, said);
            return;
        }
        for (ModelDelta delta : deltas) {
            if (delta instanceof ModelDelta.Text text) {
                given.append(text.delta());
            }
            emitter.emit(delta);
        }
    }

    private synchronized void completed(int mine) {
        if (mine != attempt || ended) {
            return;
        }
        end();
        emitter.emit(reply.done());
        emitter.complete();
    }

    /** No byte of the answer within the first-byte limit: the request is reset and asked again. */
    private synchronized void silent(int mine) {
        if (mine != attempt || ended || answering) {
            return;
        }
        cancelRequest();
        retry(provider + " sent nothing within " + firstByte.toMillis() + " ms", null, true);
    }

    private synchronized void failed(int mine, Throwable failure) {
        if (mine != attempt || ended) {
            return;
        }
        cancelTimer();
        String why = failure instanceof UpstreamServiceException said ? said.getMessage()
                .substring(said.getMessage().startsWith(ChatCompletions.FAILED) ? ChatCompletions.FAILED.length() : 0)
                : provider + ": " + failure.getMessage();
        if (!given.isEmpty()) {
            end();
            emitter.fail(new ModelStreamBrokenException(ChatCompletions.FAILED + why, given.toString()));
            return;
        }
        switch (failure) {
            case GuardedHttp.StreamRefused refused -> {
                String said = ProviderChecks.message(refused.body);
                retry(provider + " answered " + refused.status + (said == null ? "" : ": " + said),
                        RetryBudget.retryAfter(refused.retryAfter, Instant.now()),
                        RetryBudget.transientStatus(refused.status));
            }
            case GuardedHttp.Refused refused -> retry(why, null, false); // the address guard: always refused
            case GuardedHttp.Unreachable unreachable -> retry(why, null, true);
            case UpstreamServiceException said -> retry(why, null, true);
            default -> {
                end();
                emitter.fail(failure);
            }
        }
    }

    /** The try failed before the answer: another after the budget's wait, or the failure is final. */
    private void retry(String why, Duration retryAfter, boolean again) {
        long now = System.nanoTime();
        if (firstFailure < 0) {
            firstFailure = now;
        }
        Optional<Duration> wait = again ? budget.next(attempt, Duration.ofNanos(now - firstFailure), retryAfter,
                ThreadLocalRandom.current().nextDouble()) : Optional.empty();
        if (wait.isEmpty()) {
            end();
            emitter.fail(new ModelUnavailableException(ChatCompletions.FAILED + why, attempt));
            return;
        }
        LOG.debugf("The language model failed before its answer (%s); try %d in %d ms", why, attempt + 1,
                wait.get().toMillis());
        emitter.emit(new ModelDelta.Retrying(attempt + 1, wait.get(), why));
        timer = Uni.createFrom().voidItem().onItem().delayIt().by(wait.get()).subscribe().with(v -> start());
    }

    /** Cancelled downstream (a barge-in) or ended: the request is reset and no try follows. */
    private synchronized void stop() {
        end();
    }

    private void end() {
        ended = true;
        cancelTimer();
        cancelRequest();
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }

    private void cancelRequest() {
        if (request != null) {
            Cancellable open = request;
            request = null;
            open.cancel();
        }
    }
}
