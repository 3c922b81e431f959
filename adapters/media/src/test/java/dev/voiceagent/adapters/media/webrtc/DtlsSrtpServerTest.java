package dev.voiceagent.adapters.media.webrtc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.math.ec.custom.sec.SecP256R1Curve;
import org.junit.jupiter.api.Test;

/**
 * The DTLS-SRTP server against a DTLS client as a browser is one ({@link DtlsSrtpClient}: Bouncy Castle's client,
 * DTLS 1.2, ECDSA, use_srtp, its own certificate): the handshake over datagrams, the SRTP keys both sides export, and
 * the browser's certificate checked against its offer's fingerprint.
 */
class DtlsSrtpServerTest {

    private final BlockingQueue<byte[]> toClient = new LinkedBlockingQueue<>();
    private final CompletableFuture<DtlsSrtpServer.Keys> secured = new CompletableFuture<>();
    private final CompletableFuture<String> failed = new CompletableFuture<>();

    private DtlsSrtpServer server(String expectedFingerprint) {
        DtlsSrtpServer server = new DtlsSrtpServer(toClient::add, expectedFingerprint, new DtlsSrtpServer.Listener() {
            @Override
            public void secured(DtlsSrtpServer.Keys keys) {
                secured.complete(keys);
            }

            @Override
            public void failed(String why) {
                failed.complete(why);
            }

            @Override
            public void closed() {
                failed.complete("closed");
            }
        });
        server.start("test-dtls");
        return server;
    }

    @Test
    void aBrowserWithItsOffersCertificateGetsTheSameSrtpKeysAndSeesTheAnswersFingerprint() throws Exception {
        DtlsSrtpServer.Identity browser = DtlsSrtpServer.generate();
        DtlsSrtpServer server = server(browser.fingerprint);
        DtlsSrtpClient client = new DtlsSrtpClient(browser);

        DtlsSrtpServer.Keys theirs = client.connect(WebRtcWarmUp.transport(toClient, server::received));

        DtlsSrtpServer.Keys keys = secured.get(10, TimeUnit.SECONDS);
        assertThat(client.material()).hasSize(60);
        assertThat(keys.clientKey).isEqualTo(theirs.clientKey).isNotEqualTo(keys.serverKey);
        assertThat(keys.serverKey).isEqualTo(theirs.serverKey);
        assertThat(keys.clientSalt).isEqualTo(theirs.clientSalt).hasSize(14);
        assertThat(keys.serverSalt).isEqualTo(theirs.serverSalt);
        // the certificate the server showed is the one whose fingerprint every answer carries
        assertThat(DtlsSrtpServer.matches(client.serverCertificate, DtlsSrtpServer.identity().fingerprint)).isTrue();
        assertThat(failed).isNotDone();
        server.close();
    }

    @Test
    void aBrowserWhoseCertificateIsNotTheOffersIsRefused() throws Exception {
        DtlsSrtpServer server = server(DtlsSrtpServer.generate().fingerprint);
        DtlsSrtpClient impostor = new DtlsSrtpClient(DtlsSrtpServer.generate());

        assertThatThrownBy(() -> impostor.connect(WebRtcWarmUp.transport(toClient, server::received)))
                .isInstanceOf(IOException.class);

        assertThat(failed.get(10, TimeUnit.SECONDS)).contains("DTLS handshake failed");
        assertThat(secured).isNotDone();
        server.close();
    }

    @Test
    void theStartUpSelfCheckPassesHere() throws Exception {
        WebRtcWarmUp.check(); // throws on any failure
    }

    @Test
    void fingerprintsAreComparedByTheirAlgorithm() {
        DtlsSrtpServer.Identity identity = DtlsSrtpServer.generate();
        assertThat(DtlsSrtpServer.matches(identity.der, identity.fingerprint)).isTrue();
        assertThat(DtlsSrtpServer.matches(identity.der, identity.fingerprint.toLowerCase())).isTrue();
        assertThat(DtlsSrtpServer.matches(identity.der, identity.fingerprint.replace("sha-256", "sha-1"))).isFalse();
        assertThat(DtlsSrtpServer.matches(identity.der, "md5 AA:BB")).isFalse();
        assertThat(DtlsSrtpServer.matches(identity.der, null)).isFalse();
        assertThat(identity.fingerprint).matches("sha-256 ([0-9A-F]{2}:){31}[0-9A-F]{2}");
    }

    /**
     * The key signs on Bouncy Castle's own P-256 arithmetic (each handshake's signature a quarter of the generic
     * curve's time), and its certificate still names P-256 by its OID, as browsers expect.
     */
    @Test
    void theCertificatesKeyIsOnTheFastP256AndTheCertificateNamesTheCurve() throws Exception {
        DtlsSrtpServer.Identity identity = DtlsSrtpServer.generate();
        assertThat(((ECPrivateKeyParameters) identity.key).getParameters().getCurve())
                .isInstanceOf(SecP256R1Curve.class);
        var key = org.bouncycastle.asn1.x509.Certificate.getInstance(identity.der).getSubjectPublicKeyInfo();
        assertThat(key.getAlgorithm().getParameters()).isEqualTo(SECObjectIdentifiers.secp256r1);
    }
}
