package dev.voiceagent.adapters.media;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.voiceagent.application.voice.runtime.CallLoop;
import dev.voiceagent.application.voice.runtime.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.CallMediaUseCases.StartVoiceSessionUseCase;
import dev.voiceagent.application.voice.runtime.MediaChannel;
import dev.voiceagent.application.voice.runtime.MediaInput;
import dev.voiceagent.domain.audio.AudioFormat;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * One call's Twilio Media Streams socket (bidirectional {@code <Connect><Stream>}): in, connected / start (with its
 * streamSid and customParameters) / media (base64 μ-law 8 kHz) / dtmf / mark / stop; out, media / mark / clear, as
 * text frames only (Twilio drops binary ones). The socket's event loop is the call's {@link CallLoop}: the session
 * and every callback run on it. Parsed with Jackson's streaming parser, one pass per frame.
 */
final class TwilioMediaSocket implements MediaChannel, CallLoop {

    private static final System.Logger LOG = System.getLogger(TwilioMediaSocket.class.getName());
    private static final JsonFactory JSON = new JsonFactory();
    private static final Base64.Decoder DECODE = Base64.getDecoder();
    private static final Base64.Encoder ENCODE = Base64.getEncoder();

    private final ServerWebSocket socket;
    private final Admitted admitted;
    private final StartVoiceSessionUseCase start;
    private final Vertx vertx;
    private final Context context;
    private String streamSid;
    private MediaInput session;
    private boolean starting;
    private boolean closed;

    TwilioMediaSocket(ServerWebSocket socket, Admitted admitted, StartVoiceSessionUseCase start, Vertx vertx,
            Context context) {
        this.socket = socket;
        this.admitted = admitted;
        this.start = start;
        this.vertx = vertx;
        this.context = context;
    }

    void listen() {
        socket.textMessageHandler(this::frame);
        socket.closeHandler(v -> {
            closed = true;
            if (session != null) {
                session.stopped();
            }
        });
        socket.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "media socket of run {0}: {1}",
                admitted.runId(), e.toString()));
    }

    /** One Twilio message. Fields are read in one pass; the payload stays base64 until it is needed. */
    private void frame(String text) {
        String event = null;
        String sid = null;
        String payload = null;
        String digit = null;
        String mark = null;
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "event" -> event = p.getText();
                    case "streamSid" -> sid = p.getText();
                    case "start", "media", "dtmf", "mark" -> {
                        if (value != JsonToken.START_OBJECT) {
                            p.skipChildren();
                            continue;
                        }
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String inner = p.currentName();
                            p.nextToken();
                            switch (inner) {
                                case "payload" -> payload = p.getText();
                                case "digit" -> digit = p.getText();
                                case "name" -> mark = p.getText();
                                case "streamSid" -> sid = sid == null ? p.getText() : sid;
                                default -> p.skipChildren();
                            }
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "unreadable media message on run {0}", admitted.runId());
            return;
        }
        if (event == null) {
            return;
        }
        switch (event) {
            case "start" -> started(sid);
            case "media" -> {
                if (session != null && payload != null) {
                    session.audio(DECODE.decode(payload));
                }
            }
            case "dtmf" -> {
                if (session != null && digit != null) {
                    session.dtmf(digit);
                }
            }
            case "mark" -> {
                if (session != null && mark != null) {
                    session.marked(mark);
                }
            }
            case "stop" -> {
                if (session != null) {
                    session.stopped();
                }
            }
            default -> {
                // connected, and whatever Twilio adds later
            }
        }
    }

    private void started(String sid) {
        if (starting || sid == null) {
            return;
        }
        starting = true;
        streamSid = sid;
        start.start(admitted, this, this).subscribe().with(
                s -> context.runOnContext(v -> {
                    session = s;
                    if (closed && s != null) {
                        s.stopped();
                    }
                }),
                failure -> context.runOnContext(v -> close("pipeline_error")));
    }

    // ---- MediaChannel ----

    @Override
    public AudioFormat format() {
        return AudioFormat.MULAW_8K;
    }

    @Override
    public void play(byte[] frame) {
        send("{\"event\":\"media\",\"streamSid\":\"" + streamSid + "\",\"media\":{\"payload\":\""
                + ENCODE.encodeToString(frame) + "\"}}");
    }

    @Override
    public void mark(String name) {
        send("{\"event\":\"mark\",\"streamSid\":\"" + streamSid + "\",\"mark\":{\"name\":\"" + name + "\"}}");
    }

    @Override
    public void clear() {
        send("{\"event\":\"clear\",\"streamSid\":\"" + streamSid + "\"}");
    }

    @Override
    public void close(String reason) {
        if (!closed) {
            closed = true;
            LOG.log(System.Logger.Level.DEBUG, "media of run {0} closed: {1}", admitted.runId(), reason);
            socket.close((short) 1000, reason.length() > 120 ? reason.substring(0, 120) : reason);
        }
    }

    private void send(String text) {
        if (!closed) {
            socket.writeTextMessage(text);
        }
    }

    // ---- CallLoop ----

    @Override
    public Instant now() {
        return Instant.now();
    }

    @Override
    public void execute(Runnable task) {
        context.runOnContext(v -> task.run());
    }

    @Override
    public AutoCloseable every(Duration period, Runnable task) {
        long[] id = {0};
        context.runOnContext(v -> id[0] = vertx.setPeriodic(period.toMillis(), t -> task.run()));
        return () -> context.runOnContext(v -> vertx.cancelTimer(id[0]));
    }
}
