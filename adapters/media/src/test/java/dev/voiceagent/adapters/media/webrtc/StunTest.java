package dev.voiceagent.adapters.media.webrtc;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.CRC32;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** ICE-lite's STUN against the test vectors of RFC 5769. */
class StunTest {

    /** RFC 5769 §2.1: a Binding request with USERNAME "evtj:h6vY", password "VOkJxbRl1RmTxUk/WvJxBt". */
    private static final byte[] REQUEST = HexFormat.of().parseHex(
            "000100582112a442b7e7a701bc34d686fa87dfae802200105354554e207465737420636c6965"
                    + "6e74002400046e0001ff80290008932ff9b151263b36000600096576746a3a6836765920202000080014"
                    + "9aeaa70cbfd8cb56781ef2b5b2d3f249c1b571a280280004e57a3bcf");
    private static final String PASSWORD = "VOkJxbRl1RmTxUk/WvJxBt";

    @Test
    void theRfcsRequestIsCheckedWithItsPasswordAndItsUsernamesFirstHalf() {
        assertThat(Stun.isStun(REQUEST, REQUEST.length)).isTrue();
        Stun.Binding binding = Stun.binding(REQUEST, REQUEST.length, "evtj", PASSWORD);
        assertThat(binding).isNotNull();
        assertThat(HexFormat.of().formatHex(binding.transaction)).isEqualTo("b7e7a701bc34d686fa87dfae");
        assertThat(binding.useCandidate).isFalse();
    }

    @Test
    void aRequestForAnotherPeerOrForgedOrCorruptedIsDropped() {
        assertThat(Stun.binding(REQUEST, REQUEST.length, "h6vY", PASSWORD)).as("another ufrag").isNull();
        assertThat(Stun.binding(REQUEST, REQUEST.length, "evtj", "another-password-xxxx")).as("wrong key").isNull();
        byte[] changed = REQUEST.clone();
        changed[30] ^= 1; // inside SOFTWARE ("STUN test client"): the integrity no longer holds (and the fingerprint neither)
        assertThat(Stun.binding(changed, changed.length, "evtj", PASSWORD)).isNull();
        byte[] fingerprint = REQUEST.clone();
        fingerprint[fingerprint.length - 1] ^= 1; // only the fingerprint broken
        assertThat(Stun.binding(fingerprint, fingerprint.length, "evtj", PASSWORD)).isNull();
        assertThat(Stun.binding(Arrays.copyOf(REQUEST, 60), 60, "evtj", PASSWORD)).as("truncated").isNull();
        assertThat(Stun.isStun(new byte[] {(byte) 0x80, 0, 0, 0}, 4)).as("RTP").isFalse();
    }

    @Test
    void theSuccessMapsTheAddressAsTheRfcDoesAndIsSignedWithThisSidesPassword() throws Exception {
        byte[] transaction = HexFormat.of().parseHex("b7e7a701bc34d686fa87dfae");
        byte[] response = Stun.success(transaction, new InetSocketAddress("192.0.2.1", 32853), PASSWORD);

        ByteBuffer in = ByteBuffer.wrap(response);
        assertThat(in.getShort(0)).isEqualTo((short) 0x0101);
        assertThat(in.getShort(2) & 0xFFFF).isEqualTo(response.length - 20);
        assertThat(in.getInt(4)).isEqualTo(Stun.MAGIC_COOKIE);
        assertThat(Arrays.copyOfRange(response, 8, 20)).isEqualTo(transaction);
        // RFC 5769 §2.2: XOR-MAPPED-ADDRESS of 192.0.2.1 port 32853
        assertThat(HexFormat.of().formatHex(response, 20, 32)).isEqualTo("002000080001a147e112a643");
        // MESSAGE-INTEGRITY: HMAC-SHA1 keyed by the password over what precedes it, the length counting it
        assertThat(in.getShort(32)).isEqualTo((short) 0x0008);
        byte[] covered = Arrays.copyOf(response, 32);
        ByteBuffer.wrap(covered).putShort(2, (short) (32 + 24 - 20));
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(PASSWORD.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        assertThat(Arrays.copyOfRange(response, 36, 56)).isEqualTo(mac.doFinal(covered));
        // FINGERPRINT: CRC-32 of the rest XOR 0x5354554e
        assertThat(in.getShort(56)).isEqualTo((short) 0x8028);
        CRC32 crc = new CRC32();
        crc.update(response, 0, 56);
        assertThat(in.getInt(60)).isEqualTo((int) crc.getValue() ^ 0x5354554e);
        assertThat(response).hasSize(64);
    }
}
