package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * One call's Azure Speech recognition over the Speech service's own WebSocket protocol, the one its Speech SDK speaks
 * (microsoft/cognitive-services-speech-sdk-js: SpeechConnectionFactory, ServiceRecognizerBase,
 * WebsocketMessageFormatter, SpeechServiceRecognizer): {@code /speech/recognition/conversation/cognitiveservices/v1}
 * with the language and {@code format=detailed}, the key in {@code Ocp-Apim-Subscription-Key} and a connection id in
 * {@code X-ConnectionId}. Every message carries {@code Path}, {@code X-RequestId} and {@code X-Timestamp} headers: a
 * text message is its header lines, a blank line and a JSON body; a binary one is a 16-bit big-endian header length,
 * the header lines and the body. A socket is told {@code speech.config} (who is speaking: this runtime), then each
 * turn (one request id) {@code speech.context} (the language, detailed results, the workflow's dictionary as a phrase
 * list) and, as its first {@code audio} message, a RIFF/WAVE header of the call's own format ({@code audio/x-wav}:
 * μ-law 8 kHz from a phone, as it is, format tag 7; 16-bit PCM 16 kHz from a browser), then the caller's audio in
 * {@code audio} messages of {@link ListenSocket#CHUNK_MS}.
 *
 * <p>{@code speech.hypothesis} is interim; {@code speech.phrase} is final (its best {@code NBest} entry's
 * {@code Display}), given when Azure's segmentation hears a pause, and settles the audio up to its
 * {@code Offset + Duration} (100 ns ticks from the turn's first audio). Azure has no finalize of its own: when our voice
 * activity hears the caller stop, the turn's audio is ended (an {@code audio} message with no body), Azure gives the
 * phrases it still owed and {@code turn.end}; those phrases are one final at {@code turn.end} (an empty one when there
 * were none: nothing more, the caller's turn is answered now), which settles the audio sent before the end, and the
 * next turn begins at once on the same socket (a new request id, {@code speech.context}, the WAVE header, the audio
 * said meanwhile). A phrase whose {@code RecognitionStatus} is {@code BadRequest} or {@code Forbidden}, or a close
 * with 1007 (bad data) or 1008 (policy: quota, key), fails the stream with Azure's words; {@code Error} and
 * {@code TooManyRequests} drop the socket, which is opened again ({@link ListenSocket}). No keep-alive: the call's
 * audio never pauses. The catalog's {@code model} setting (a Google model name) means nothing to Azure and is not sent.
 */
final class AzureListen extends ListenSocket {

    static final String PATH = "/speech/recognition/conversation/cognitiveservices/v1";
    /** The most phrases a phrase list takes. */
    static final int MAX_PHRASES = 500;
    /** 100 ns ticks in a millisecond. */
    private static final long TICKS_PER_MS = 10_000;
    private static final Set<Short> REFUSALS = Set.of((short) 1007, (short) 1008);
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");

    private final String language;
    private final List<String> phrases;
    /** The current turn's request id. */
    private String requestId;
    /** Where the current turn's audio began (wire bytes since the call began). */
    private long turnFrom;
    /** The turn's audio was ended (a finalize): Azure owes its last phrases and turn.end. */
    private boolean ending;
    /** Where the ended turn's audio stopped. */
    private long endAt;
    /** Another finalize came while the turn was ending: the next turn ends as soon as its audio is sent. */
    private boolean again;
    /** The audio said while the turn was ending: the next turn's first. */
    private final List<byte[]> held = new ArrayList<>();
    /** The phrases the ended turn gave, joined. */
    private final StringBuilder owed = new StringBuilder();

    AzureListen(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            String language, List<String> keyterms, SpeechToText.Listener listener) {
        super(connect, vertx, budget, "Azure Speech", format, true, listener);
        this.language = language;
        this.phrases = keyterms.stream().map(String::strip).filter(t -> !t.isEmpty()).distinct().limit(MAX_PHRASES)
                .toList();
        connect();
    }

    /** The conversation endpoint's path and query: the language and detailed results. */
    static String query(String language) {
        return PATH + "?language=" + URLEncoder.encode(language, StandardCharsets.UTF_8) + "&format=detailed";
    }

    /** A connection id, as the Speech SDK makes them: a GUID without dashes. */
    static String id() {
        return UUID.randomUUID().toString().replace("-", "").toUpperCase(Locale.ROOT);
    }

    /** The 44-byte RIFF/WAVE header of the audio Azure hears: its format tag, rate and sample size, no length. */
    static byte[] waveHeader(AudioFormat format) {
        boolean mulaw = format.encoding() == AudioFormat.Encoding.MULAW;
        int bits = mulaw ? 8 : 16;
        int block = bits / 8;
        ByteBuffer b = ByteBuffer.allocate(44).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(0).put("WAVEfmt ".getBytes(StandardCharsets.US_ASCII))
                .putInt(16).putShort((short) (mulaw ? 7 : 1)).putShort((short) 1).putInt(format.sampleRate())
                .putInt(format.sampleRate() * block).putShort((short) block).putShort((short) bits)
                .put("data".getBytes(StandardCharsets.US_ASCII)).putInt(0);
        return b.array();
    }

    private static String headers(String path, String requestId, String contentType) {
        return "Path: " + path + "\r\nX-RequestId: " + requestId + "\r\nX-Timestamp: "
                + TIMESTAMP.format(ZonedDateTime.now(ZoneOffset.UTC)) + "\r\n"
                + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n");
    }

    /** A text message: its header lines, a blank line, its body. */
    static String text(String path, String requestId, String contentType, String body) {
        return headers(path, requestId, contentType) + "\r\n" + body;
    }

    /** A binary audio message: the header length (16-bit big-endian), the header lines, the audio. */
    static Buffer audio(String requestId, String contentType, byte[] body) {
        byte[] head = headers("audio", requestId, contentType).getBytes(StandardCharsets.US_ASCII);
        return Buffer.buffer(2 + head.length + body.length).appendShort((short) head.length).appendBytes(head)
                .appendBytes(body);
    }

    /** The speech.context of a turn: the language, detailed results, the dictionary as a phrase list. */
    JsonObject context() {
        JsonObject context = new JsonObject().put("phraseDetection", new JsonObject().put("language", language))
                .put("phraseOutput", new JsonObject().put("format", "Detailed")
                        .put("detailed", new JsonObject().put("options", new JsonArray())));
        if (!phrases.isEmpty()) {
            JsonArray items = new JsonArray();
            phrases.forEach(p -> items.add(new JsonObject().put("text", p)));
            context.put("dgi", new JsonObject().put("groups", new JsonArray().add(new JsonObject()
                    .put("type", "Generic").put("items", items))).put("bias", 1.0));
        }
        return context;
    }

    @Override
    protected synchronized void begin(WebSocket ws) {
        held.clear();
        owed.setLength(0);
        ending = false;
        again = false;
        requestId = id();
        ws.writeTextMessage(text("speech.config", requestId, "application/json", new JsonObject()
                .put("context", new JsonObject().put("system", new JsonObject().put("name", "voiceagent")
                        .put("version", "1").put("build", "Java").put("lang", "Java"))).encode()));
        startTurn(ws, sentSoFar());
    }

    /** A turn begins: its context and WAVE header under a request id of its own, then the audio held for it. */
    private void startTurn(WebSocket ws, long from) {
        if (ending) {
            requestId = id();
        }
        ending = false;
        turnFrom = from;
        owed.setLength(0);
        ws.writeTextMessage(text("speech.context", requestId, "application/json", context().encode()));
        ws.writeBinaryMessage(audio(requestId, "audio/x-wav", waveHeader(wire)));
        for (byte[] chunk : held) {
            ws.writeBinaryMessage(audio(requestId, null, chunk));
        }
        held.clear();
        if (again) {
            again = false;
            endTurn(ws);
        }
    }

    /** The turn's audio ends (an audio message with no body): Azure settles what it heard and ends the turn. */
    private void endTurn(WebSocket ws) {
        ws.writeBinaryMessage(audio(requestId, null, new byte[0]));
        ending = true;
        endAt = sentSoFar();
    }

    @Override
    protected synchronized void sendAudio(WebSocket ws, byte[] chunk) {
        if (ending) {
            held.add(chunk);
        } else {
            ws.writeBinaryMessage(audio(requestId, null, chunk));
        }
    }

    @Override
    protected synchronized void sendFinalize(WebSocket ws) {
        if (ending) {
            again = true;
        } else {
            endTurn(ws);
        }
    }

    @Override
    protected synchronized void last(WebSocket ws) {
        if (!ending) {
            endTurn(ws);
        }
    }

    @Override
    protected boolean refusal(Short code) {
        return code != null && REFUSALS.contains(code);
    }

    @Override
    protected synchronized void message(String text) {
        int split = text.indexOf("\r\n\r\n");
        Map<String, String> headers = new HashMap<>();
        for (String line : (split < 0 ? text : text.substring(0, split)).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1)
                        .strip());
            }
        }
        if (requestId == null || !requestId.equalsIgnoreCase(headers.getOrDefault("x-requestid", ""))) {
            return; // an earlier turn's, or another socket's
        }
        JsonObject body;
        try {
            body = split < 0 || split + 4 >= text.length() ? new JsonObject() : new JsonObject(text.substring(split + 4));
        } catch (DecodeException e) {
            body = new JsonObject();
        }
        switch (headers.getOrDefault("path", "").toLowerCase(Locale.ROOT)) {
            case "speech.hypothesis", "speech.fragment" -> {
                String so = body.getValue("Text") instanceof String s ? s.strip() : "";
                if (!closed && !so.isEmpty()) {
                    listener.transcript(so, false);
                }
            }
            case "speech.phrase" -> phrase(body);
            case "turn.end" -> turnEnded();
            default -> {
                // turn.start, speech.startDetected, speech.endDetected
            }
        }
    }

    private void phrase(JsonObject body) {
        String status = body.getString("RecognitionStatus", "");
        switch (status) {
            case "BadRequest", "Forbidden" -> {
                giveUp("Azure Speech: " + status);
                return;
            }
            case "Error", "TooManyRequests" -> {
                WebSocket ws = socket();
                if (ws != null) {
                    ws.close(); // a socket of its own again, within the budget
                }
                return;
            }
            default -> {
                // Success, or no words: NoMatch, InitialSilenceTimeout, BabbleTimeout, EndOfDictation
            }
        }
        if (closed) {
            return;
        }
        String said = "";
        if ("Success".equals(status)) {
            JsonArray best = body.getValue("NBest") instanceof JsonArray n ? n : new JsonArray();
            said = best.isEmpty() || !(best.getValue(0) instanceof JsonObject first)
                    ? body.getString("DisplayText", "") : first.getString("Display", body.getString("DisplayText", ""));
            said = said.strip();
        }
        if (ending) {
            owed.append(owed.isEmpty() || said.isEmpty() ? "" : " ").append(said);
            return;
        }
        if (body.getValue("Offset") instanceof Number offset && body.getValue("Duration") instanceof Number duration) {
            settle(turnFrom + (offset.longValue() + duration.longValue()) / TICKS_PER_MS * wire.bytes(1));
        } else {
            settle(-1);
        }
        if (!said.isEmpty()) {
            listener.transcript(said, true);
        }
    }

    /** Azure ended the turn: the ended turn's final (when we ended it), then the next turn. */
    private void turnEnded() {
        WebSocket ws = socket();
        if (closed) {
            if (ws != null) {
                ws.close(); // the end we sent is answered: no need to wait for the grace
            }
            return;
        }
        long from = sentSoFar();
        if (ending) {
            if (again) {
                settle(endAt); // the finalize asked again is the next turn's to answer
            } else {
                answered();
            }
            listener.transcript(owed.toString().strip(), true);
            from = endAt;
        }
        if (ws != null) {
            ending = true; // a new request id, whoever ended the turn
            startTurn(ws, from);
        }
    }

    @Override
    public void close() {
        end(null, 2_000);
    }
}
