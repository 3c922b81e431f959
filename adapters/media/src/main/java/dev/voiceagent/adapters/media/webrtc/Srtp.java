package dev.voiceagent.adapters.media.webrtc;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * SRTP (RFC 3711) with the profile every browser offers, SRTP_AES128_CM_HMAC_SHA1_80: one direction's context, its
 * session keys derived from the master key and salt DTLS exported (key derivation rate 0), AES counter mode for the
 * payload and HMAC-SHA1 truncated to 80 bits over the packet and the rollover counter. RTP only: the browser's RTCP is
 * not read, and none is sent (its receiver reports are not needed to play or hear audio).
 */
final class Srtp {

    static final int KEY_LENGTH = 16;
    static final int SALT_LENGTH = 14;
    private static final int TAG_LENGTH = 10;

    private final SecretKeySpec cipherKey;
    private final byte[] salt;
    private final Mac mac;
    private final Cipher cipher;
    /** Sender: the rollover counter of the packets protected. Receiver: of the highest sequence number seen. */
    private int rollover;
    private int highestSequence = -1;

    Srtp(byte[] masterKey, byte[] masterSalt) {
        try {
            this.cipherKey = new SecretKeySpec(derive(masterKey, masterSalt, 0, KEY_LENGTH), "AES");
            this.salt = derive(masterKey, masterSalt, 2, SALT_LENGTH);
            this.mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(derive(masterKey, masterSalt, 1, 20), "HmacSHA1"));
            this.cipher = Cipher.getInstance("AES/CTR/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES and HmacSHA1 are part of every Java runtime", e);
        }
    }

    /**
     * A session key (RFC 3711 §4.3.1, key derivation rate 0): AES-CM keyed by the master key over the master salt with
     * {@code label} at its seventh byte, the first {@code length} bytes of its key stream.
     */
    static byte[] derive(byte[] masterKey, byte[] masterSalt, int label, int length) throws GeneralSecurityException {
        byte[] iv = new byte[16];
        System.arraycopy(masterSalt, 0, iv, 0, SALT_LENGTH);
        iv[7] ^= (byte) label;
        Cipher aes = Cipher.getInstance("AES/CTR/NoPadding");
        aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(masterKey, "AES"), new IvParameterSpec(iv));
        return aes.doFinal(new byte[length]);
    }

    /** The RTP packet {@code packet} protected: its payload encrypted, the authentication tag appended. */
    byte[] protect(byte[] packet) {
        int sequence = ((packet[2] & 0xFF) << 8) | (packet[3] & 0xFF);
        if (highestSequence >= 0 && sequence < highestSequence && highestSequence - sequence > 0x8000) {
            rollover++;
        }
        highestSequence = sequence;
        byte[] out = Arrays.copyOf(packet, packet.length + TAG_LENGTH);
        int header = headerLength(packet, packet.length);
        try {
            crypt(out, header, packet.length - header, ssrc(packet), ((long) rollover << 16) | sequence);
            System.arraycopy(tag(out, packet.length, rollover), 0, out, packet.length, TAG_LENGTH);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    /**
     * The SRTP packet's RTP packet (payload decrypted), or null when its tag does not verify (a forged or corrupted
     * packet, dropped). The rollover counter is estimated from the sequence number (RFC 3711 Appendix A).
     */
    byte[] unprotect(byte[] packet, int length) {
        int size = length - TAG_LENGTH;
        if (size < 12) {
            return null;
        }
        int header = headerLength(packet, size);
        if (header < 0) {
            return null;
        }
        int sequence = ((packet[2] & 0xFF) << 8) | (packet[3] & 0xFF);
        int guess = rollover;
        if (highestSequence >= 0) {
            if (highestSequence < 0x8000) {
                if (sequence - highestSequence > 0x8000) {
                    guess = rollover - 1;
                }
            } else if (highestSequence - 0x8000 > sequence) {
                guess = rollover + 1;
            }
        }
        try {
            byte[] expected = tag(packet, size, guess);
            if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(packet, size, length))) {
                return null;
            }
            byte[] out = Arrays.copyOf(packet, size);
            crypt(out, header, size - header, ssrc(packet), ((long) guess << 16) | sequence);
            if (highestSequence < 0 || guess > rollover || (guess == rollover && sequence > highestSequence)) {
                rollover = guess;
                highestSequence = sequence;
            }
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The RTP header's length (fixed part, CSRCs, extension), or -1 when the packet is shorter than it says. */
    static int headerLength(byte[] packet, int length) {
        int at = 12 + 4 * (packet[0] & 0x0F);
        if ((packet[0] & 0x10) != 0) {
            if (at + 4 > length) {
                return -1;
            }
            at += 4 + 4 * (((packet[at + 2] & 0xFF) << 8) | (packet[at + 3] & 0xFF));
        }
        return at <= length ? at : -1;
    }

    private static int ssrc(byte[] packet) {
        return ((packet[8] & 0xFF) << 24) | ((packet[9] & 0xFF) << 16) | ((packet[10] & 0xFF) << 8)
                | (packet[11] & 0xFF);
    }

    /** AES-CM over {@code length} bytes at {@code from}: IV = salt ^ (SSRC << 64) ^ (index << 16). */
    private void crypt(byte[] data, int from, int length, int ssrc, long index) throws GeneralSecurityException {
        byte[] iv = new byte[16];
        System.arraycopy(salt, 0, iv, 0, SALT_LENGTH);
        for (int i = 0; i < 4; i++) {
            iv[4 + i] ^= (byte) (ssrc >>> (24 - 8 * i));
        }
        for (int i = 0; i < 6; i++) {
            iv[8 + i] ^= (byte) (index >>> (40 - 8 * i));
        }
        cipher.init(Cipher.ENCRYPT_MODE, cipherKey, new IvParameterSpec(iv));
        cipher.doFinal(data, from, length, data, from);
    }

    private byte[] tag(byte[] packet, int length, int roc) {
        mac.update(packet, 0, length);
        mac.update(new byte[] {(byte) (roc >>> 24), (byte) (roc >>> 16), (byte) (roc >>> 8), (byte) roc});
        return Arrays.copyOf(mac.doFinal(), TAG_LENGTH);
    }
}
