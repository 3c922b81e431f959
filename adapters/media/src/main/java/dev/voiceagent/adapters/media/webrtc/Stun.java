package dev.voiceagent.adapters.media.webrtc;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The part of STUN (RFC 8489) an ICE-lite agent needs (RFC 8445 §2.5): the browser's Binding requests checked
 * (short-term credentials: USERNAME "ours:theirs", MESSAGE-INTEGRITY keyed by this side's ice-pwd, FINGERPRINT) and
 * answered with a Binding success carrying XOR-MAPPED-ADDRESS. A lite agent sends no checks of its own.
 */
final class Stun {

    static final int MAGIC_COOKIE = 0x2112A442;
    private static final int BINDING_REQUEST = 0x0001;
    private static final int BINDING_SUCCESS = 0x0101;
    private static final int USERNAME = 0x0006;
    private static final int MESSAGE_INTEGRITY = 0x0008;
    private static final int XOR_MAPPED_ADDRESS = 0x0020;
    private static final int USE_CANDIDATE = 0x0025;
    private static final int FINGERPRINT = 0x8028;
    private static final int FINGERPRINT_XOR = 0x5354554e;

    private Stun() {
    }

    /** A checked Binding request: its transaction id and whether the browser nominated this pair. */
    static final class Binding {
        final byte[] transaction;
        final boolean useCandidate;

        Binding(byte[] transaction, boolean useCandidate) {
            this.transaction = transaction;
            this.useCandidate = useCandidate;
        }
    }

    /** Whether the datagram is STUN (RFC 7983: its first byte 0..3). */
    static boolean isStun(byte[] packet, int length) {
        return length >= 20 && (packet[0] & 0xFF) < 4 && ByteBuffer.wrap(packet, 4, 4).getInt() == MAGIC_COOKIE;
    }

    /**
     * The Binding request in {@code packet} if it is one for this agent: its USERNAME starts with
     * {@code localUfrag + ":"}, its MESSAGE-INTEGRITY verifies with {@code localPassword} and its FINGERPRINT (when
     * present) matches; null for anything else (dropped, as a lite agent may).
     */
    static Binding binding(byte[] packet, int length, String localUfrag, String localPassword) {
        ByteBuffer in = ByteBuffer.wrap(packet, 0, length);
        if (length < 20 || in.getShort(0) != BINDING_REQUEST || in.getInt(4) != MAGIC_COOKIE
                || 20 + (in.getShort(2) & 0xFFFF) != length) {
            return null;
        }
        String username = null;
        boolean useCandidate = false;
        int integrityAt = -1;
        int at = 20;
        while (at + 4 <= length) {
            int type = in.getShort(at) & 0xFFFF;
            int size = in.getShort(at + 2) & 0xFFFF;
            if (at + 4 + size > length) {
                return null;
            }
            if (integrityAt >= 0 && type != FINGERPRINT) {
                return null; // nothing but the fingerprint may follow the integrity
            }
            switch (type) {
                case USERNAME -> username = new String(packet, at + 4, size, StandardCharsets.UTF_8);
                case USE_CANDIDATE -> useCandidate = true;
                case MESSAGE_INTEGRITY -> {
                    if (size != 20) {
                        return null;
                    }
                    integrityAt = at;
                }
                case FINGERPRINT -> {
                    if (size != 4 || in.getInt(at + 4) != fingerprint(packet, at)) {
                        return null;
                    }
                }
                default -> {
                    // PRIORITY, ICE-CONTROLLING, GOOG-NETWORK-INFO ...: not needed by a lite agent
                }
            }
            at += 4 + ((size + 3) & ~3);
        }
        if (username == null || !username.startsWith(localUfrag + ":") || integrityAt < 0) {
            return null;
        }
        byte[] expected = integrity(packet, integrityAt, localPassword);
        byte[] given = new byte[20];
        System.arraycopy(packet, integrityAt + 4, given, 0, 20);
        if (!MessageDigest.isEqual(expected, given)) {
            return null;
        }
        byte[] transaction = new byte[12];
        System.arraycopy(packet, 8, transaction, 0, 12);
        return new Binding(transaction, useCandidate);
    }

    /** The Binding success for {@code transaction}: XOR-MAPPED-ADDRESS {@code from}, MESSAGE-INTEGRITY, FINGERPRINT. */
    static byte[] success(byte[] transaction, InetSocketAddress from, String localPassword) {
        byte[] address = from.getAddress().getAddress();
        int attributes = 4 + 4 + address.length + 4 + 20 + 4 + 4;
        ByteBuffer out = ByteBuffer.allocate(20 + attributes);
        out.putShort((short) BINDING_SUCCESS).putShort((short) attributes).putInt(MAGIC_COOKIE).put(transaction);
        out.putShort((short) XOR_MAPPED_ADDRESS).putShort((short) (4 + address.length));
        out.put((byte) 0).put((byte) (address.length == 4 ? 1 : 2));
        out.putShort((short) (from.getPort() ^ (MAGIC_COOKIE >>> 16)));
        byte[] xor = new byte[16];
        ByteBuffer.wrap(xor).putInt(MAGIC_COOKIE).put(transaction);
        for (int i = 0; i < address.length; i++) {
            out.put((byte) (address[i] ^ xor[i]));
        }
        int integrityAt = out.position();
        out.putShort((short) MESSAGE_INTEGRITY).putShort((short) 20).put(new byte[20]);
        int fingerprintAt = out.position();
        out.putShort((short) FINGERPRINT).putShort((short) 4).putInt(0);
        byte[] packet = out.array();
        byte[] mac = integrity(packet, integrityAt, localPassword);
        System.arraycopy(mac, 0, packet, integrityAt + 4, 20);
        ByteBuffer.wrap(packet).putInt(fingerprintAt + 4, fingerprint(packet, fingerprintAt));
        return packet;
    }

    /**
     * HMAC-SHA1 over the message before the MESSAGE-INTEGRITY attribute at {@code at}, its header's length counting
     * up to the end of that attribute (RFC 8489 §14.5).
     */
    static byte[] integrity(byte[] packet, int at, String password) {
        byte[] covered = new byte[at];
        System.arraycopy(packet, 0, covered, 0, at);
        ByteBuffer.wrap(covered).putShort(2, (short) (at + 24 - 20));
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(password.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return mac.doFinal(covered);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA1 is part of every Java runtime", e);
        }
    }

    /** CRC-32 of the message before the FINGERPRINT at {@code at}, the length counting it, XOR 0x5354554e. */
    static int fingerprint(byte[] packet, int at) {
        byte[] covered = new byte[at];
        System.arraycopy(packet, 0, covered, 0, at);
        ByteBuffer.wrap(covered).putShort(2, (short) (at + 8 - 20));
        CRC32 crc = new CRC32();
        crc.update(covered);
        return (int) crc.getValue() ^ FINGERPRINT_XOR;
    }

    /**
     * A browser's connectivity check, as the controlling agent nominating the pair: a Binding request with USERNAME
     * ({@code username}: the answer's ufrag, a colon, the offer's), ICE-CONTROLLING, USE-CANDIDATE, MESSAGE-INTEGRITY
     * keyed by the answer's {@code password}, and FINGERPRINT. Its transaction id is the packet's bytes 8 to 20.
     */
    static byte[] bindingRequest(String username, String password) {
        byte[] name = username.getBytes(StandardCharsets.UTF_8);
        int padded = (name.length + 3) & ~3;
        ByteBuffer out = ByteBuffer.allocate(20 + 4 + padded + 12 + 4 + 24 + 8);
        byte[] transaction = new byte[12];
        ThreadLocalRandom.current().nextBytes(transaction);
        out.putShort((short) BINDING_REQUEST).putShort((short) (out.capacity() - 20)).putInt(MAGIC_COOKIE)
                .put(transaction);
        out.putShort((short) USERNAME).putShort((short) name.length).put(name).put(new byte[padded - name.length]);
        out.putShort((short) 0x802A).putShort((short) 8).putLong(ThreadLocalRandom.current()
                .nextLong()); // ICE-CONTROLLING, its tie-breaker
        out.putShort((short) USE_CANDIDATE).putShort((short) 0);
        int integrityAt = out.position();
        out.putShort((short) MESSAGE_INTEGRITY).putShort((short) 20).put(new byte[20]);
        int fingerprintAt = out.position();
        out.putShort((short) FINGERPRINT).putShort((short) 4).putInt(0);
        byte[] packet = out.array();
        System.arraycopy(integrity(packet, integrityAt, password), 0, packet, integrityAt + 4, 20);
        ByteBuffer.wrap(packet).putInt(fingerprintAt + 4, fingerprint(packet, fingerprintAt));
        return packet;
    }
}
