package dev.voiceagent.adapters.telephony.twilio;

import java.util.ArrayList;
import java.util.List;

/**
 * TwiML, Twilio's markup, written as a tree of elements with every attribute value and text escaped: how this service
 * writes every TwiML it gives Twilio (a call's stream, the answer to an inbound call, a transfer's {@code <Dial>}, a
 * whisper, a hang-up). An element with neither text nor children is written empty ({@code <Reject/>}).
 *
 * <pre>{@code
 * Twiml.response(Twiml.element("Reject").attribute("reason", "busy")).document()
 * // <?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>
 * }</pre>
 */
public final class Twiml {

    private static final String DECLARATION = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";

    private final String name;
    private final StringBuilder attributes = new StringBuilder();
    private final List<Twiml> children = new ArrayList<>();
    private String text;

    private Twiml(String name) {
        this.name = name;
    }

    /** A {@code <Response>} holding {@code verbs}, in order. */
    public static Twiml response(Twiml... verbs) {
        return element("Response").with(verbs);
    }

    /** An element (a verb such as {@code <Dial>} or a noun such as {@code <Number>}) with nothing in it yet. */
    public static Twiml element(String name) {
        return new Twiml(name);
    }

    /** An attribute, after those already given; its value escaped. */
    public Twiml attribute(String name, Object value) {
        attributes.append(' ').append(name).append("=\"").append(escape(String.valueOf(value))).append('"');
        return this;
    }

    /** The element's text (a {@code <Say>}'s words, a {@code <Number>}'s number), escaped; before its children. */
    public Twiml text(String text) {
        this.text = text;
        return this;
    }

    /** Child elements, after those already given. */
    public Twiml with(Twiml... children) {
        this.children.addAll(List.of(children));
        return this;
    }

    /** The markup, as the Calls API takes it (its {@code Twiml} parameter). */
    public String xml() {
        StringBuilder out = new StringBuilder();
        write(out);
        return out.toString();
    }

    /** The markup as the answer to one of Twilio's requests: with the XML declaration. */
    public String document() {
        return DECLARATION + xml();
    }

    @Override
    public String toString() {
        return xml();
    }

    private void write(StringBuilder out) {
        out.append('<').append(name).append(attributes);
        if (text == null && children.isEmpty()) {
            out.append("/>");
            return;
        }
        out.append('>');
        if (text != null) {
            out.append(escape(text));
        }
        for (Twiml child : children) {
            child.write(out);
        }
        out.append("</").append(name).append('>');
    }

    /** Text or an attribute's value, in XML: {@code & " < >} escaped. */
    static String escape(String value) {
        return value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
