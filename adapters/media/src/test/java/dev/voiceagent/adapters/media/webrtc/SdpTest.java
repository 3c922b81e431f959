package dev.voiceagent.adapters.media.webrtc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The browser's offer read and the answer written, on an offer as Chromium makes it (audio, video, data). */
class SdpTest {

    /** Chromium's offer for a microphone, a camera transceiver and a data channel (shortened). */
    static final String OFFER = String.join("\r\n",
            "v=0",
            "o=- 4611731400430051336 2 IN IP4 127.0.0.1",
            "s=-",
            "t=0 0",
            "a=group:BUNDLE 0 1 2",
            "a=extmap-allow-mixed",
            "a=msid-semantic: WMS stream",
            "m=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126",
            "c=IN IP4 0.0.0.0",
            "a=rtcp:9 IN IP4 0.0.0.0",
            "a=ice-ufrag:Zx9q",
            "a=ice-pwd:4Tq0ZLWnJxKd1m8nXn4vH2fS",
            "a=ice-options:trickle",
            "a=fingerprint:sha-256 0B:4A:7F:1D:22:9C:58:E3:41:9A:AB:02:53:67:6E:C1:A2:B4:7B:2F:13:55:C4:09:"
                    + "CC:58:0F:66:97:19:3A:E1",
            "a=setup:actpass",
            "a=mid:0",
            "a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level",
            "a=sendrecv",
            "a=msid:stream track",
            "a=rtcp-mux",
            "a=rtpmap:111 opus/48000/2",
            "a=rtcp-fb:111 transport-cc",
            "a=fmtp:111 minptime=10;useinbandfec=1",
            "a=rtpmap:0 PCMU/8000",
            "a=ssrc:3735928559 cname:abc",
            "m=video 9 UDP/TLS/RTP/SAVPF 96 97",
            "c=IN IP4 0.0.0.0",
            "a=mid:1",
            "a=recvonly",
            "a=rtpmap:96 VP8/90000",
            "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
            "c=IN IP4 0.0.0.0",
            "a=mid:2",
            "a=sctp-port:5000",
            "") + "\r\n";

    @Test
    void theOffersAudioIsOpusWithItsCredentialsAndFingerprint() {
        Sdp.Offer offer = Sdp.parse(OFFER);
        assertThat(offer.sections).hasSize(3);
        assertThat(offer.audio.mid).isEqualTo("0");
        assertThat(offer.audio.opus).isEqualTo(111);
        assertThat(offer.iceUfrag).isEqualTo("Zx9q");
        assertThat(offer.icePassword).isEqualTo("4Tq0ZLWnJxKd1m8nXn4vH2fS");
        assertThat(offer.fingerprint).startsWith("sha-256 0B:4A");
    }

    @Test
    void theAnswerTakesTheAudioAndRejectsTheRest() {
        String answer = Sdp.answer(Sdp.parse(OFFER), "ufrag123", "pwd-of-twenty-four-chars", "sha-256 AA:BB",
                List.of(new InetSocketAddress("10.1.2.3", 40_001), new InetSocketAddress("192.0.2.7", 40_001)),
                1234, 99);
        assertThat(answer).contains("\r\na=ice-lite\r\n", "a=group:BUNDLE 0\r\n",
                "m=audio 40001 UDP/TLS/RTP/SAVPF 111\r\n", "c=IN IP4 10.1.2.3\r\n", "a=ice-ufrag:ufrag123\r\n",
                "a=ice-pwd:pwd-of-twenty-four-chars\r\n", "a=fingerprint:sha-256 AA:BB\r\n", "a=setup:passive\r\n",
                "a=mid:0\r\n", "a=sendrecv\r\n", "a=rtcp-mux\r\n", "a=rtpmap:111 opus/48000/2\r\n",
                "a=ssrc:1234 cname:agent\r\n", "a=candidate:1 1 udp 2130706175 10.1.2.3 40001 typ host\r\n",
                "a=candidate:2 1 udp 2130705919 192.0.2.7 40001 typ host\r\n", "a=end-of-candidates\r\n",
                "m=video 0 UDP/TLS/RTP/SAVPF 96 97\r\n", "m=application 0 UDP/DTLS/SCTP webrtc-datachannel\r\n",
                "a=mid:2\r\n");
        // the sections keep the offer's order (JSEP) and the rejected ones carry no ICE or DTLS
        assertThat(answer.indexOf("m=audio")).isLessThan(answer.indexOf("m=video"));
        assertThat(answer.substring(answer.indexOf("m=video"))).doesNotContain("ice-ufrag", "fingerprint");
        assertThat(answer).doesNotContain("PCMU").endsWith("\r\n");
    }

    @Test
    void aSendOnlyOfferIsAnsweredReceiveOnly() {
        String answer = Sdp.answer(Sdp.parse(OFFER.replace("a=sendrecv", "a=sendonly")), "u", "p", "sha-256 AA",
                List.of(new InetSocketAddress("10.1.2.3", 1)), 1, 1);
        assertThat(answer).contains("a=recvonly\r\n").doesNotContain("a=sendrecv");
    }

    @Test
    void offersThatCannotBeAnsweredSayWhy() {
        assertThatThrownBy(() -> Sdp.parse(OFFER.replace("opus/48000/2", "ISAC/16000")))
                .hasMessageContaining("no audio with Opus");
        assertThatThrownBy(() -> Sdp.parse(OFFER.replaceAll("a=fingerprint:[^\r]*\r\n", "")))
                .hasMessageContaining("no DTLS fingerprint");
        assertThatThrownBy(() -> Sdp.parse(OFFER.replace("a=ice-pwd:4Tq0ZLWnJxKd1m8nXn4vH2fS\r\n", "")))
                .hasMessageContaining("no ICE credentials");
        assertThatThrownBy(() -> Sdp.parse(OFFER.replace("a=setup:actpass", "a=setup:passive")))
                .hasMessageContaining("DTLS server");
        assertThatThrownBy(() -> Sdp.parse("v=0\r\nm=audio\r\n")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Sdp.parse("not sdp")).isInstanceOf(IllegalArgumentException.class);
    }
}
