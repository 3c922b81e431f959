package dev.voiceagent.adapters.media;

import dev.voiceagent.adapters.media.carrier.CarrierDialect;
import dev.voiceagent.adapters.media.carrier.CarrierDialects;
import dev.voiceagent.adapters.media.carrier.CarrierEvent;
import dev.voiceagent.adapters.media.carrier.CarrierFrame;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.StartVoiceSessionUseCase;
import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.domain.audio.AudioFormat;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One call's media socket, in the dialect of the carrier whose start message it receives ({@link CarrierDialect}: a
 * fresh dialect of each carrier of {@link CarrierDialects} is offered the first messages, and the one that knows the
 * start speaks the call). The socket knows no carrier: it hands each message to the dialect, tells the session what
 * the event says, and sends the frames the dialect writes for the session's audio, marks and clear. A socket that
 * closes before the carrier said the media stopped is a loss ({@link MediaInput#lost()}), not a hang-up.
 * <p>
 * The socket's event loop is the call's {@link CallLoop} ({@link VertxCallLoop}): the session and every callback run
 * on it.
 */
final class CarrierMediaSocket implements MediaChannel {

    private static final System.Logger LOG = System.getLogger(CarrierMediaSocket.class.getName());
    /** The disposition of a call whose media never started (the reference's system_connect_error). */
    static final String NOT_STARTED = "system_connect_error";
    static final String BROKEN = "pipeline_error";

    private final ServerWebSocket socket;
    private final Admitted admitted;
    private final StartVoiceSessionUseCase start;
    private final Context context;
    private final Vertx vertx;
    private final CallLoop loop;
    /** A fresh dialect of each carrier, until one of them knows the start. */
    private List<CarrierDialect> candidates;
    private CarrierDialect dialect;
    private long dropped;
    /** Messages that could not be read (not the carrier's JSON, a payload that is not base64): told once per call. */
    private long unreadable;
    /** Why the transport broke the socket (a frame too large), or null. */
    private String broken;
    private long startTimer;
    /** How long the socket may go without its start message before it is closed and its run ended. */
    private final long startTimeoutMs;
    private MediaInput session;
    private boolean starting;
    private boolean closed;
    /** The carrier said the media stopped (a hang-up), or this side closed it; a close before either is a loss. */
    private boolean stopSaid;
    private boolean resumable;
    /** For a carrier that echoes no mark: when the agent's audio sent so far will have played (epoch ms). */
    private long playsUntil;
    /** For a carrier that echoes no mark: the timers that echo the marks sent, until their audio has played. */
    private final List<Long> markTimers = new ArrayList<>();

    /** @param dialects the carriers this socket may speak, as {@link CarrierDialects#ALL} */
    CarrierMediaSocket(ServerWebSocket socket, Admitted admitted, StartVoiceSessionUseCase start,
            List<Supplier<CarrierDialect>> dialects, Vertx vertx, Context context, long startTimeoutMs) {
        this.socket = socket;
        this.admitted = admitted;
        this.start = start;
        this.context = context;
        this.vertx = vertx;
        this.startTimeoutMs = startTimeoutMs;
        this.loop = new VertxCallLoop(vertx, context);
        this.candidates = dialects.stream().map(Supplier::get).toList();
    }

    void listen() {
        socket.textMessageHandler(this::text);
        socket.binaryMessageHandler(this::binary);
        socket.closeHandler(v -> closed());
        socket.exceptionHandler(this::failed);
        startTimer = vertx.setTimer(startTimeoutMs, t -> {
            if (!starting && !closed) {
                LOG.log(System.Logger.Level.WARNING, "media of run {0} never started: closed after {1} s",
                        admitted.runId(), startTimeoutMs / 1000.0);
                close(NOT_STARTED);
                endUnstarted(NOT_STARTED);
            }
        });
    }

    /**
     * The transport refused what the carrier sent ({@link MediaLimits}): the socket is closed with 1009 and the call is
     * broken. Other failures (a reset connection) only end the socket, which its close says.
     */
    private void failed(Throwable e) {
        String exceeded = MediaLimits.exceeded(e);
        if (exceeded == null) {
            LOG.log(System.Logger.Level.DEBUG, "media socket of run {0}: {1}", admitted.runId(), e.toString());
            return;
        }
        if (broken == null) {
            broken = "the media socket was closed: " + exceeded;
            LOG.log(System.Logger.Level.WARNING, "media of run {0}: {1}", admitted.runId(), exceeded);
        }
        if (!closed) {
            closed = true;
            stopSaid = true;
            socket.close((short) 1009, exceeded.startsWith("message") ? "message too big" : "frame too big");
        }
    }

    private void closed() {
        closed = true;
        vertx.cancelTimer(startTimer);
        cancelMarks();
        if (dropped > 0 || unreadable > 0) {
            LOG.log(System.Logger.Level.DEBUG, "media of run {0}: {1} frames out of order dropped, {2} messages"
                    + " unreadable", admitted.runId(), dropped, unreadable);
        }
        if (session != null) {
            if (broken != null) {
                session.broken(broken);
            } else if (stopSaid) {
                session.stopped();
            } else {
                session.lost();
            }
        } else if (broken != null && !starting) {
            endUnstarted(BROKEN);
        }
    }

    /** The run of a call whose session never started ends here, with that disposition. */
    private void endUnstarted(String reason) {
        start.endUnstarted(admitted, reason).subscribe().with(ok -> { }, f -> LOG.log(System.Logger.Level.WARNING,
                "run {0} not ended: {1}", admitted.runId(), f.toString()));
    }

    /** A message that cannot be read: told once per call, counted after. */
    private void unreadable(Exception e) {
        if (unreadable++ == 0) {
            LOG.log(System.Logger.Level.WARNING, "media of run {0}: an unreadable message ({1}); later ones are"
                    + " counted", admitted.runId(), e.getMessage());
        }
    }

    /** One message as a dialect reads it (a text or a binary one). */
    private interface Message {
        CarrierEvent readBy(CarrierDialect dialect) throws IOException;
    }

    private void text(String text) {
        receive(dialect -> dialect.read(text));
    }

    private void binary(Buffer data) {
        byte[] bytes = data.getBytes();
        receive(dialect -> dialect.read(bytes));
    }

    /** Read once by the call's dialect; before the start, offered to each carrier's until one knows it. */
    private void receive(Message message) {
        if (dialect != null) {
            CarrierEvent event;
            try {
                event = message.readBy(dialect);
            } catch (IOException | IllegalArgumentException e) {
                unreadable(e);
                return;
            }
            handle(event);
            return;
        }
        for (CarrierDialect candidate : candidates) {
            CarrierEvent event;
            try {
                event = message.readBy(candidate);
            } catch (IOException | IllegalArgumentException e) {
                continue; // not this carrier's message
            }
            if (event instanceof CarrierEvent.Start || event instanceof CarrierEvent.Refused) {
                dialect = candidate; // the call speaks the dialect that knows its start
                candidates = List.of();
                LOG.log(System.Logger.Level.DEBUG, "media of run {0} speaks {1}", admitted.runId(),
                        candidate.carrier());
                handle(event);
                return;
            }
        }
    }

    private void handle(CarrierEvent event) {
        switch (event) {
            case CarrierEvent.Start s -> started(s);
            case CarrierEvent.Refused r -> {
                LOG.log(System.Logger.Level.WARNING, "media of run {0} refused: {1}", admitted.runId(), r.why());
                close(r.reason());
            }
            case CarrierEvent.Audio a -> {
                if (session != null) {
                    session.audio(a.frame());
                }
            }
            case CarrierEvent.Dtmf d -> {
                if (session != null) {
                    session.dtmf(d.digit());
                }
            }
            case CarrierEvent.Marked m -> {
                if (session != null) {
                    session.marked(m.name());
                }
            }
            case CarrierEvent.Stopped s -> {
                stopSaid = true;
                if (session != null) {
                    session.stopped();
                }
            }
            case CarrierEvent.Failed f -> LOG.log(System.Logger.Level.WARNING,
                    "the carrier reported a media error on run {0}: {1}", admitted.runId(), f.detail());
            case CarrierEvent.Dropped d -> dropped++;
            case CarrierEvent.Ignored i -> {
                // connected, the agent's own track, and whatever the carriers add later
            }
        }
    }

    private void started(CarrierEvent.Start event) {
        if (starting) {
            return;
        }
        starting = true;
        resumable = event.resumable(); // the carrier streams the call again when this stream ends without it
        start.start(admitted, this, loop).subscribe().with(
                s -> context.runOnContext(v -> {
                    session = s;
                    if (closed && s != null) {
                        if (stopSaid) {
                            s.stopped();
                        } else {
                            s.lost();
                        }
                    }
                }),
                failure -> context.runOnContext(v -> close("pipeline_error")));
    }

    // ---- MediaChannel (the session's, once the dialect is known) ----

    @Override
    public AudioFormat format() {
        return dialect.format();
    }

    @Override
    public void play(byte[] frame) {
        send(dialect.media(frame));
        if (!dialect.echoesMarks()) { // the carrier plays it after what it holds, in real time
            long now = System.currentTimeMillis();
            playsUntil = Math.max(playsUntil, now) + frame.length * 20L / dialect.format().bytes(20);
        }
    }

    /** A mark, or where the carrier echoes none, its echo when the audio sent before it has played by the clock. */
    @Override
    public void mark(String name) {
        if (dialect.echoesMarks()) {
            send(dialect.mark(name));
            return;
        }
        long delay = Math.max(1, playsUntil - System.currentTimeMillis());
        long[] id = new long[1];
        id[0] = vertx.setTimer(delay, t -> {
            markTimers.remove(id[0]);
            if (session != null && !closed) {
                session.marked(name);
            }
        });
        markTimers.add(id[0]);
    }

    @Override
    public void clear() {
        send(dialect.clear());
        if (!dialect.echoesMarks()) { // what the carrier held is gone, and the marks after it with it
            playsUntil = System.currentTimeMillis();
            cancelMarks();
        }
    }

    private void cancelMarks() {
        markTimers.forEach(vertx::cancelTimer);
        markTimers.clear();
    }

    @Override
    public void close(String reason) {
        if (!closed) {
            if (dialect != null) {
                dialect.hangUp().ifPresent(this::send);
            }
            closed = true;
            stopSaid = true;
            LOG.log(System.Logger.Level.DEBUG, "media of run {0} closed: {1}", admitted.runId(), reason);
            socket.close((short) 1000, reason.length() > 120 ? reason.substring(0, 120) : reason);
        }
    }

    private void send(CarrierFrame frame) {
        if (closed) {
            return;
        }
        switch (frame) {
            case CarrierFrame.Text text -> socket.writeTextMessage(text.text());
            case CarrierFrame.Binary binary -> socket.writeBinaryMessage(Buffer.buffer(binary.bytes()));
        }
    }

    @Override
    public boolean resumable() {
        return resumable;
    }
}
