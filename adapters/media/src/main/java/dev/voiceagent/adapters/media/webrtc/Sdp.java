package dev.voiceagent.adapters.media.webrtc;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The browser's offer read and this side's answer written (JSEP, RFC 8829; BUNDLE and rtcp-mux as browsers do): the
 * first audio section offering Opus is taken, every other section (video, data channel, a second audio) is rejected
 * with port 0. The answer is ICE-lite, DTLS server ({@code a=setup:passive}), Opus at the offer's payload type, and
 * carries all of this side's candidates, so nothing needs to trickle.
 */
final class Sdp {

    private Sdp() {
    }

    /** One m= section of the offer. */
    static final class Section {
        String kind;
        String protocol = "";
        List<String> formats = List.of();
        String mid;
        String iceUfrag;
        String icePassword;
        String fingerprint;
        String setup;
        String direction = "sendrecv";
        int opus = -1;
        String opusFmtp;
    }

    /** What the answer needs of an offer. */
    static final class Offer {
        final List<Section> sections = new ArrayList<>();
        /** The section answered (the first audio one with Opus). */
        Section audio;
        String iceUfrag;
        String icePassword;
        String fingerprint;
    }

    /** The offer, or an IllegalArgumentException saying why it cannot be answered. */
    static Offer parse(String sdp) {
        Offer offer = new Offer();
        String sessionUfrag = null;
        String sessionPassword = null;
        String sessionFingerprint = null;
        Section section = null;
        for (String raw : sdp.split("\r?\n")) {
            String line = raw.strip();
            if (line.startsWith("m=")) {
                section = new Section();
                String[] parts = line.substring(2).split(" ");
                if (parts.length < 3) {
                    throw new IllegalArgumentException("a media line without its protocol: " + line);
                }
                section.kind = parts[0];
                section.protocol = parts[2];
                section.formats = List.of(parts).subList(3, parts.length);
                offer.sections.add(section);
                continue;
            }
            if (!line.startsWith("a=")) {
                continue;
            }
            String attribute = line.substring(2);
            String name = attribute.contains(":") ? attribute.substring(0, attribute.indexOf(':')) : attribute;
            String value = attribute.contains(":") ? attribute.substring(attribute.indexOf(':') + 1).strip() : "";
            if (section == null) {
                switch (name) {
                    case "ice-ufrag" -> sessionUfrag = value;
                    case "ice-pwd" -> sessionPassword = value;
                    case "fingerprint" -> sessionFingerprint = value;
                    default -> {
                        // group, msid-semantic, extmap-allow-mixed ...
                    }
                }
                continue;
            }
            switch (name) {
                case "mid" -> section.mid = value;
                case "ice-ufrag" -> section.iceUfrag = value;
                case "ice-pwd" -> section.icePassword = value;
                case "fingerprint" -> section.fingerprint = value;
                case "setup" -> section.setup = value;
                case "sendrecv", "sendonly", "recvonly", "inactive" -> section.direction = name;
                case "rtpmap" -> {
                    String[] parts = value.split(" ", 2);
                    if (parts.length == 2 && parts[1].toLowerCase(Locale.ROOT).startsWith("opus/48000")
                            && section.opus < 0) {
                        section.opus = parseInt(parts[0]);
                    }
                }
                case "fmtp" -> {
                    String[] parts = value.split(" ", 2);
                    if (parts.length == 2 && parseInt(parts[0]) == section.opus && section.opus >= 0) {
                        section.opusFmtp = parts[1];
                    }
                }
                default -> {
                    // extmap, rtcp-fb, ssrc, msid, candidate (ICE-lite learns the browser's address from its checks)
                }
            }
        }
        for (Section s : offer.sections) {
            if (offer.audio == null && "audio".equals(s.kind) && s.opus >= 0 && s.protocol.contains("SAVPF")) {
                offer.audio = s;
            }
        }
        if (offer.audio == null) {
            throw new IllegalArgumentException("the offer has no audio with Opus over DTLS-SRTP");
        }
        offer.iceUfrag = first(offer.audio.iceUfrag, sessionUfrag);
        offer.icePassword = first(offer.audio.icePassword, sessionPassword);
        offer.fingerprint = first(offer.audio.fingerprint, sessionFingerprint);
        if (offer.iceUfrag == null || offer.icePassword == null) {
            throw new IllegalArgumentException("the offer has no ICE credentials");
        }
        if (offer.fingerprint == null) {
            throw new IllegalArgumentException("the offer has no DTLS fingerprint");
        }
        if ("passive".equals(offer.audio.setup)) {
            throw new IllegalArgumentException("the offer wants to be the DTLS server (a=setup:passive)");
        }
        return offer;
    }

    /**
     * The answer to {@code offer}: this side's ICE credentials and {@code candidates} (host, UDP), its certificate's
     * {@code fingerprint}, Opus with the offer's payload type, and {@code ssrc} for the agent's audio.
     */
    static String answer(Offer offer, String iceUfrag, String icePassword, String fingerprint,
            List<InetSocketAddress> candidates, long ssrc, long sessionId) {
        Section audio = offer.audio;
        StringBuilder sdp = new StringBuilder();
        line(sdp, "v=0");
        line(sdp, "o=- " + sessionId + " 2 IN IP4 127.0.0.1");
        line(sdp, "s=-");
        line(sdp, "t=0 0");
        line(sdp, "a=ice-lite");
        if (audio.mid != null) {
            line(sdp, "a=group:BUNDLE " + audio.mid);
        }
        line(sdp, "a=msid-semantic: WMS agent");
        for (Section section : offer.sections) {
            if (section != audio) {
                // rejected: port 0, outside the bundle
                line(sdp, "m=" + section.kind + " 0 " + section.protocol + " "
                        + (section.formats.isEmpty() ? "0" : String.join(" ", section.formats)));
                line(sdp, "c=IN IP4 0.0.0.0");
                if (section.mid != null) {
                    line(sdp, "a=mid:" + section.mid);
                }
                if (!"application".equals(section.kind)) {
                    line(sdp, "a=inactive");
                }
                continue;
            }
            InetSocketAddress first = candidates.getFirst();
            line(sdp, "m=audio " + first.getPort() + " UDP/TLS/RTP/SAVPF " + audio.opus);
            line(sdp, "c=IN IP4 " + first.getAddress().getHostAddress());
            line(sdp, "a=rtcp:" + first.getPort() + " IN IP4 " + first.getAddress().getHostAddress());
            line(sdp, "a=ice-ufrag:" + iceUfrag);
            line(sdp, "a=ice-pwd:" + icePassword);
            line(sdp, "a=fingerprint:" + fingerprint);
            line(sdp, "a=setup:passive");
            if (audio.mid != null) {
                line(sdp, "a=mid:" + audio.mid);
            }
            line(sdp, "a=" + switch (audio.direction) {
                case "sendonly" -> "recvonly";
                case "recvonly" -> "sendonly";
                case "inactive" -> "inactive";
                default -> "sendrecv";
            });
            line(sdp, "a=msid:agent agent-audio");
            line(sdp, "a=rtcp-mux");
            line(sdp, "a=rtpmap:" + audio.opus + " opus/48000/2");
            line(sdp, "a=fmtp:" + audio.opus + " minptime=10;useinbandfec=1");
            line(sdp, "a=ssrc:" + ssrc + " cname:agent");
            line(sdp, "a=ssrc:" + ssrc + " msid:agent agent-audio");
            int foundation = 1;
            for (InetSocketAddress candidate : candidates) {
                // host candidates, priority by RFC 8445 §5.1.2.1 (type preference 126, local preference by order)
                long priority = (126L << 24) | ((long) (65_535 - foundation) << 8) | 255;
                line(sdp, "a=candidate:" + foundation + " 1 udp " + priority + " "
                        + candidate.getAddress().getHostAddress() + " " + candidate.getPort() + " typ host");
                foundation++;
            }
            line(sdp, "a=end-of-candidates");
        }
        return sdp.toString();
    }

    private static void line(StringBuilder sdp, String line) {
        sdp.append(line).append("\r\n");
    }

    private static String first(String a, String b) {
        return a != null ? a : b;
    }

    private static int parseInt(String text) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
