package dev.voiceagent.adapters.media;

import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.StartVoiceSessionUseCase;
import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The voice runtime's start as the media sockets use it: it records the channel and loop a socket hands it and
 * answers with a {@link ScriptedSession}, at once or when the test lets it ({@link #later()}), or fails.
 */
public final class ScriptedStart implements StartVoiceSessionUseCase {

    /** A run as the admission hands it over (organization 1, workflow 2, run 3). */
    public static final Admitted ADMITTED = new Admitted(1, 2, 3, null, null);

    public final ScriptedSession session = new ScriptedSession();
    /** The channel the socket started the session with. */
    public final CompletableFuture<MediaChannel> media = new CompletableFuture<>();
    /** The reasons of the calls ended before their session ({@code endUnstarted}). */
    public final List<String> unstarted = new CopyOnWriteArrayList<>();
    private volatile CallLoop loop;
    private CompletableFuture<MediaInput> answer = CompletableFuture.completedFuture(session);

    /** The session starts when {@link #let()} says so. */
    public ScriptedStart later() {
        answer = new CompletableFuture<>();
        return this;
    }

    /** The session that waited ({@link #later()}) starts now. */
    public void let() {
        answer.complete(session);
    }

    /** The session that waited ({@link #later()}) is refused: the runtime ended the call itself and gives no session. */
    public void refuse() {
        answer.complete(null);
    }

    /** The session cannot start. */
    public ScriptedStart failing() {
        answer = CompletableFuture.failedFuture(new IllegalStateException("no model for this agent"));
        return this;
    }

    @Override
    public Uni<MediaInput> start(Admitted admitted, MediaChannel channel, CallLoop loop) {
        this.loop = loop;
        media.complete(channel);
        return Uni.createFrom().completionStage(answer);
    }

    @Override
    public Uni<Void> endUnstarted(Admitted admitted, String reason) {
        unstarted.add(reason);
        return Uni.createFrom().voidItem();
    }

    /** The reasons of the calls ended before their session, once there is one (waiting up to 5 s). */
    public List<String> unstarted() throws InterruptedException {
        for (int i = 0; i < 100 && unstarted.isEmpty(); i++) {
            Thread.sleep(50);
        }
        return List.copyOf(unstarted);
    }

    /** The channel, once the socket started the session (waiting up to 5 s). */
    public MediaChannel channel() throws Exception {
        return media.get(5, TimeUnit.SECONDS);
    }

    /** Runs {@code task} on the call's loop, as the session does, and waits for it. */
    public void onLoop(Runnable task) throws Exception {
        channel();
        CountDownLatch done = new CountDownLatch(1);
        loop.execute(() -> {
            try {
                task.run();
            } finally {
                done.countDown();
            }
        });
        if (!done.await(5, TimeUnit.SECONDS)) {
            throw new AssertionError("the call's loop did not run the task");
        }
    }

    /**
     * Waits until the socket holds its session: the socket hands the session to itself on the call's loop, in a task
     * queued while it handled the start; two turns of the loop after the start was asked for, that task has run.
     */
    public void awaitSession() throws Exception {
        onLoop(() -> { });
        onLoop(() -> { });
    }
}
