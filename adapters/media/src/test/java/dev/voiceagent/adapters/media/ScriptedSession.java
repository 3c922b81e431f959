package dev.voiceagent.adapters.media;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import io.vertx.core.Context;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A call's session as the media sockets see it: what it is told, in order (audio frames apart), and whether each call
 * came on an event loop (a session runs on its call's loop and nowhere else).
 */
public final class ScriptedSession implements MediaInput {

    /** "dtmf 5", "marked s1", "stopped", "lost", "broken why", in the order they came. */
    public final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    public final BlockingQueue<byte[]> audio = new LinkedBlockingQueue<>();
    /** The calls that did not come on an event loop (none, ever). */
    public final List<String> offLoop = new CopyOnWriteArrayList<>();

    @Override
    public void audio(byte[] frame) {
        onLoop("audio");
        audio.add(frame.clone());
    }

    @Override
    public void dtmf(String digit) {
        record("dtmf " + digit);
    }

    @Override
    public void marked(String name) {
        record("marked " + name);
    }

    @Override
    public void stopped() {
        record("stopped");
    }

    @Override
    public void lost() {
        record("lost");
    }

    @Override
    public void broken(String why) {
        record("broken " + why);
    }

    private void record(String event) {
        onLoop(event);
        events.add(event);
    }

    private void onLoop(String event) {
        if (!Context.isOnEventLoopThread()) {
            offLoop.add(event + " on " + Thread.currentThread().getName());
        }
    }

    /** The next event, waiting up to 5 s for it. */
    public String next() throws InterruptedException {
        String event = events.poll(5, TimeUnit.SECONDS);
        assertThat(event).as("the session's next event").isNotNull();
        return event;
    }

    /** The next audio frame, waiting up to 5 s for it. */
    public byte[] nextAudio() throws InterruptedException {
        byte[] frame = audio.poll(5, TimeUnit.SECONDS);
        assertThat(frame).as("the session's next audio frame").isNotNull();
        return frame;
    }
}
