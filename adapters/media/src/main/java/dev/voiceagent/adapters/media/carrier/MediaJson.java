package dev.voiceagent.adapters.media.carrier;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.util.Base64;

/** What the JSON dialects share: Jackson's streaming parser (one pass a message, no tree) and base64. */
final class MediaJson {

    static final JsonFactory JSON = new JsonFactory();
    static final Base64.Decoder DECODE = Base64.getDecoder();
    static final Base64.Encoder ENCODE = Base64.getEncoder();

    private MediaJson() {
    }

    /** {@code value} as a JSON string literal, quotes included, escaped as JSON requires. */
    static String quote(String value) {
        return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(value)) + '"';
    }

    /** The value the parser is on, as text; null for a JSON null, and for an object or array (skipped). */
    static String text(JsonParser p) throws IOException {
        JsonToken token = p.currentToken();
        if (token.isStructStart()) {
            p.skipChildren();
            return null;
        }
        return token == JsonToken.VALUE_NULL ? null : p.getText();
    }

    /** A number sent as a number or a string ("sequence_number": "42"); -1 when it is neither. */
    static long number(JsonParser p) throws IOException {
        String text = text(p);
        try {
            return text == null ? -1 : Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
