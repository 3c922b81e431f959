package dev.voiceagent.adapters.media.webrtc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** SRTP's AES_CM_128_HMAC_SHA1_80 against RFC 3711's key derivation vectors, both ways and over a rollover. */
class SrtpTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] MASTER_KEY = HEX.parseHex("e1f97a0d3e018be0d64fa32c06de4139");
    private static final byte[] MASTER_SALT = HEX.parseHex("0ec675ad498afeebb6960b3aabe6");

    @Test
    void sessionKeysAreDerivedAsRfc3711AppendixB3() throws Exception {
        assertThat(HEX.formatHex(Srtp.derive(MASTER_KEY, MASTER_SALT, 0, 16)))
                .isEqualTo("c61e7a93744f39ee10734afe3ff7a087");
        assertThat(HEX.formatHex(Srtp.derive(MASTER_KEY, MASTER_SALT, 2, 14)))
                .isEqualTo("30cbbc08863d8c85d49db34a9ae1");
        assertThat(HEX.formatHex(Srtp.derive(MASTER_KEY, MASTER_SALT, 1, 20)))
                .isEqualTo("cebe321f6ff7716b6fd4ab49af256a156d38baa4");
    }

    @Test
    void whatOneSideProtectsTheOtherReadsAndAForgeryIsDropped() {
        Srtp sender = new Srtp(MASTER_KEY, MASTER_SALT);
        Srtp receiver = new Srtp(MASTER_KEY, MASTER_SALT);
        byte[] rtp = packet(4711, "opus payload of a frame".getBytes());

        byte[] protectedPacket = sender.protect(rtp);
        assertThat(protectedPacket).hasSize(rtp.length + 10);
        assertThat(Arrays.copyOf(protectedPacket, 12)).as("the header stays clear").isEqualTo(Arrays.copyOf(rtp, 12));
        assertThat(Arrays.copyOfRange(protectedPacket, 12, rtp.length)).as("the payload is encrypted")
                .isNotEqualTo(Arrays.copyOfRange(rtp, 12, rtp.length));
        assertThat(receiver.unprotect(protectedPacket, protectedPacket.length)).isEqualTo(rtp);

        byte[] forged = sender.protect(packet(4712, "another".getBytes()));
        forged[14] ^= 1;
        assertThat(receiver.unprotect(forged, forged.length)).isNull();
        Srtp otherKey = new Srtp(HEX.parseHex("00f97a0d3e018be0d64fa32c06de4139"), MASTER_SALT);
        byte[] fromOther = otherKey.protect(packet(4713, "x".getBytes()));
        assertThat(receiver.unprotect(fromOther, fromOther.length)).isNull();
    }

    @Test
    void theRolloverCounterFollowsTheSequenceNumberPastItsWrap() {
        Srtp sender = new Srtp(MASTER_KEY, MASTER_SALT);
        Srtp receiver = new Srtp(MASTER_KEY, MASTER_SALT);
        for (int seq = 65_530; seq < 65_536 + 10; seq++) {
            byte[] rtp = packet(seq & 0xFFFF, ("frame " + seq).getBytes());
            byte[] sent = sender.protect(rtp);
            assertThat(receiver.unprotect(sent, sent.length)).as("packet %d", seq).isEqualTo(rtp);
        }
        // a late packet from before the wrap still reads (the receiver guesses the previous rollover)
        Srtp wrapping = new Srtp(MASTER_KEY, MASTER_SALT);
        Srtp lateReceiver = new Srtp(MASTER_KEY, MASTER_SALT);
        byte[] a = wrapping.protect(packet(65_534, "a".getBytes()));
        byte[] late = wrapping.protect(packet(65_535, "late".getBytes()));
        byte[] after = wrapping.protect(packet(0, "after".getBytes()));
        assertThat(lateReceiver.unprotect(a, a.length)).isNotNull();
        assertThat(lateReceiver.unprotect(after, after.length)).isEqualTo(packet(0, "after".getBytes()));
        assertThat(lateReceiver.unprotect(late, late.length)).isEqualTo(packet(65_535, "late".getBytes()));
        byte[] next = wrapping.protect(packet(1, "next".getBytes()));
        assertThat(lateReceiver.unprotect(next, next.length)).as("still on the new rollover").isNotNull();
    }

    @Test
    void headerLengthCountsCsrcsAndTheExtension() {
        byte[] plain = packet(1, new byte[4]);
        assertThat(Srtp.headerLength(plain, plain.length)).isEqualTo(12);
        byte[] extended = new byte[12 + 4 + 8 + 3];
        extended[0] = (byte) 0x90; // V=2, X=1
        extended[12 + 3] = 2; // two words of extension
        assertThat(Srtp.headerLength(extended, extended.length)).isEqualTo(24);
        assertThat(Srtp.headerLength(extended, 20)).as("shorter than its extension").isEqualTo(-1);
    }

    private static byte[] packet(int sequence, byte[] payload) {
        byte[] rtp = new byte[12 + payload.length];
        rtp[0] = (byte) 0x80;
        rtp[1] = 111;
        rtp[2] = (byte) (sequence >> 8);
        rtp[3] = (byte) sequence;
        rtp[8] = 0x12;
        rtp[9] = 0x34;
        rtp[10] = 0x56;
        rtp[11] = 0x78;
        System.arraycopy(payload, 0, rtp, 12, payload.length);
        return rtp;
    }
}
