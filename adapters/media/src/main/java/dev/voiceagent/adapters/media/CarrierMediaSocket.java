package dev.voiceagent.adapters.media;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.StartVoiceSessionUseCase;
import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import java.io.IOException;
import java.util.Base64;

/**
 * One call's media socket, in the carrier's dialect of the same JSON shape, chosen by the start message's stream id:
 * <ul>
 * <li>Twilio Media Streams, bidirectional {@code <Connect><Stream>}: in, connected / start (streamSid,
 * customParameters) / media (base64 μ-law 8 kHz) / dtmf / mark / stop; out, media / mark / clear, each with the
 * streamSid, as text frames only (Twilio drops binary ones).</li>
 * <li>Telnyx media streaming, bidirectional RTP mode: in, connected / start (stream_id, call_control_id,
 * media_format) / media (base64 RTP payloads of the inbound track, PCMU or PCMA; A-law is turned into μ-law here) /
 * dtmf / mark / error / stop; out, media / mark / clear without ids (the socket is the stream). Telnyx does not
 * promise order: a media frame whose sequence number is not past the last one played in is dropped.</li>
 * </ul>
 * The socket's event loop is the call's {@link CallLoop} ({@link VertxCallLoop}): the session and every callback run on it. Parsed with
 * Jackson's streaming parser, one pass per frame.
 */
final class CarrierMediaSocket implements MediaChannel {

    private static final System.Logger LOG = System.getLogger(CarrierMediaSocket.class.getName());
    private static final JsonFactory JSON = new JsonFactory();
    private static final Base64.Decoder DECODE = Base64.getDecoder();
    private static final Base64.Encoder ENCODE = Base64.getEncoder();

    /** The carriers whose media protocol this socket speaks. */
    enum Dialect {
        TWILIO, TELNYX
    }

    private final ServerWebSocket socket;
    private final Admitted admitted;
    private final StartVoiceSessionUseCase start;
    private final Context context;
    private final CallLoop loop;
    private Dialect dialect;
    private String streamSid;
    private boolean alaw;
    private long lastSequence = -1;
    private long dropped;
    private MediaInput session;
    private boolean starting;
    private boolean closed;
    /** The carrier said the media stopped (a hang-up), or this side closed it; a close before either is a loss. */
    private boolean stopSaid;
    private boolean resumable;

    CarrierMediaSocket(ServerWebSocket socket, Admitted admitted, StartVoiceSessionUseCase start, Vertx vertx,
            Context context) {
        this.socket = socket;
        this.admitted = admitted;
        this.start = start;
        this.context = context;
        this.loop = new VertxCallLoop(vertx, context);
    }

    void listen() {
        socket.textMessageHandler(this::frame);
        socket.closeHandler(v -> {
            closed = true;
            if (dropped > 0) {
                LOG.log(System.Logger.Level.DEBUG, "media of run {0}: {1} frames out of order dropped",
                        admitted.runId(), dropped);
            }
            if (session != null) {
                if (stopSaid) {
                    session.stopped();
                } else {
                    session.lost();
                }
            }
        });
        socket.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "media socket of run {0}: {1}",
                admitted.runId(), e.toString()));
    }

    /** One message, read in one pass; the payload stays base64 until it is needed. */
    private void frame(String text) {
        Message m = new Message();
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "event" -> m.event = p.getText();
                    case "streamSid" -> m.twilioSid = p.getText();
                    case "stream_id" -> m.telnyxId = p.getText();
                    case "sequenceNumber", "sequence_number" -> m.sequence = number(p.getText());
                    case "start", "media", "dtmf", "mark", "payload" -> {
                        if (value == JsonToken.START_OBJECT) {
                            inner(p, m);
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "unreadable media message on run {0}", admitted.runId());
            return;
        }
        if (m.event == null) {
            return;
        }
        switch (m.event) {
            case "start" -> started(m);
            case "media" -> media(m);
            case "dtmf" -> {
                if (session != null && m.digit != null) {
                    session.dtmf(m.digit);
                }
            }
            case "mark" -> {
                if (session != null && m.mark != null) {
                    session.marked(m.mark);
                }
            }
            case "stop" -> {
                stopSaid = true;
                if (session != null) {
                    session.stopped();
                }
            }
            case "error" -> LOG.log(System.Logger.Level.WARNING, "the carrier reported a media error on run {0}: {1}",
                    admitted.runId(), m.detail);
            default -> {
                // connected, and whatever the carriers add later
            }
        }
    }

    /** The fields of start / media / dtmf / mark / error objects this socket reads (one level, plus media_format). */
    private static void inner(JsonParser p, Message m) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            switch (name) {
                case "payload" -> m.payload = p.getText();
                case "digit" -> m.digit = p.getText();
                case "name" -> m.mark = p.getText();
                case "track" -> m.track = p.getText();
                case "streamSid" -> m.twilioSid = m.twilioSid == null ? p.getText() : m.twilioSid;
                case "detail", "title" -> m.detail = m.detail == null ? p.getText() : m.detail;
                case "customParameters" -> {
                    if (value != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        continue;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String parameter = p.currentName();
                        p.nextToken();
                        if ("resumable".equals(parameter)) {
                            m.resumable = "true".equals(p.getText());
                        } else {
                            p.skipChildren();
                        }
                    }
                }
                case "media_format" -> {
                    if (value != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        continue;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String format = p.currentName();
                        p.nextToken();
                        if ("encoding".equals(format)) {
                            m.encoding = p.getText();
                        } else {
                            p.skipChildren();
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
    }

    private static long number(String text) {
        try {
            return text == null ? -1 : Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** What one message said (the fields this socket reads). */
    private static final class Message {
        String event;
        String twilioSid;
        String telnyxId;
        long sequence = -1;
        String payload;
        String digit;
        String mark;
        String track;
        String encoding;
        String detail;
        boolean resumable;
    }

    private void media(Message m) {
        if (session == null || m.payload == null || m.track != null && !"inbound".equals(m.track)) {
            return; // the agent's own track (both_tracks) is never heard back
        }
        if (m.sequence >= 0) {
            if (m.sequence <= lastSequence) {
                dropped++;
                return;
            }
            lastSequence = m.sequence;
        }
        byte[] audio = DECODE.decode(m.payload);
        session.audio(alaw ? G711.alawToMulaw(audio) : audio);
    }

    private void started(Message m) {
        if (starting) {
            return;
        }
        if (m.twilioSid != null) {
            dialect = Dialect.TWILIO;
            streamSid = m.twilioSid;
            resumable = m.resumable; // the TwiML redirects Twilio back to us when this stream ends
        } else if (m.telnyxId != null) {
            dialect = Dialect.TELNYX;
            streamSid = m.telnyxId;
            String encoding = m.encoding == null ? "PCMU" : m.encoding.toUpperCase(java.util.Locale.ROOT);
            if (!"PCMU".equals(encoding) && !"PCMA".equals(encoding)) {
                LOG.log(System.Logger.Level.WARNING, "media of run {0} refused: Telnyx streams {1}, not PCMU or PCMA",
                        admitted.runId(), encoding);
                close("unsupported_media_encoding");
                return;
            }
            alaw = "PCMA".equals(encoding);
        } else {
            return;
        }
        starting = true;
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

    // ---- MediaChannel ----

    @Override
    public AudioFormat format() {
        return AudioFormat.MULAW_8K;
    }

    @Override
    public void play(byte[] frame) {
        String payload = ENCODE.encodeToString(frame);
        send(dialect == Dialect.TWILIO
                ? "{\"event\":\"media\",\"streamSid\":\"" + streamSid + "\",\"media\":{\"payload\":\"" + payload + "\"}}"
                : "{\"event\":\"media\",\"media\":{\"payload\":\"" + payload + "\"}}");
    }

    @Override
    public void mark(String name) {
        send(dialect == Dialect.TWILIO
                ? "{\"event\":\"mark\",\"streamSid\":\"" + streamSid + "\",\"mark\":{\"name\":\"" + name + "\"}}"
                : "{\"event\":\"mark\",\"mark\":{\"name\":\"" + name + "\"}}");
    }

    @Override
    public void clear() {
        send(dialect == Dialect.TWILIO ? "{\"event\":\"clear\",\"streamSid\":\"" + streamSid + "\"}"
                : "{\"event\":\"clear\"}");
    }

    @Override
    public void close(String reason) {
        if (!closed) {
            closed = true;
            stopSaid = true;
            LOG.log(System.Logger.Level.DEBUG, "media of run {0} closed: {1}", admitted.runId(), reason);
            socket.close((short) 1000, reason.length() > 120 ? reason.substring(0, 120) : reason);
        }
    }

    private void send(String text) {
        if (!closed) {
            socket.writeTextMessage(text);
        }
    }

    @Override
    public boolean resumable() {
        return resumable;
    }
}
