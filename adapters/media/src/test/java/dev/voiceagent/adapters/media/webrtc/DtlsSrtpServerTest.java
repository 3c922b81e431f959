package dev.voiceagent.adapters.media.webrtc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Hashtable;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.tls.Certificate;
import org.bouncycastle.tls.CertificateRequest;
import org.bouncycastle.tls.CipherSuite;
import org.bouncycastle.tls.DTLSClientProtocol;
import org.bouncycastle.tls.DatagramTransport;
import org.bouncycastle.tls.DefaultTlsClient;
import org.bouncycastle.tls.ExporterLabel;
import org.bouncycastle.tls.HashAlgorithm;
import org.bouncycastle.tls.ProtocolVersion;
import org.bouncycastle.tls.SRTPProtectionProfile;
import org.bouncycastle.tls.SignatureAlgorithm;
import org.bouncycastle.tls.SignatureAndHashAlgorithm;
import org.bouncycastle.tls.TlsAuthentication;
import org.bouncycastle.tls.TlsCredentials;
import org.bouncycastle.tls.TlsSRTPUtils;
import org.bouncycastle.tls.TlsServerCertificate;
import org.bouncycastle.tls.TlsUtils;
import org.bouncycastle.tls.UseSRTPData;
import org.bouncycastle.tls.crypto.TlsCertificate;
import org.bouncycastle.tls.crypto.TlsCryptoParameters;
import org.bouncycastle.tls.crypto.impl.bc.BcDefaultTlsCredentialedSigner;
import org.bouncycastle.tls.crypto.impl.bc.BcTlsCrypto;
import org.junit.jupiter.api.Test;

/**
 * The DTLS-SRTP server against a DTLS client as a browser is one (Bouncy Castle's client: DTLS 1.2, ECDSA, use_srtp,
 * its own certificate): the handshake over datagrams, the SRTP keys both sides export, and the browser's certificate
 * checked against its offer's fingerprint.
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
        Browser client = new Browser(browser);

        byte[] material = client.connect(server);

        DtlsSrtpServer.Keys keys = secured.get(10, TimeUnit.SECONDS);
        assertThat(material).hasSize(60);
        assertThat(keys.clientKey).isEqualTo(Arrays.copyOfRange(material, 0, 16));
        assertThat(keys.serverKey).isEqualTo(Arrays.copyOfRange(material, 16, 32));
        assertThat(keys.clientSalt).isEqualTo(Arrays.copyOfRange(material, 32, 46));
        assertThat(keys.serverSalt).isEqualTo(Arrays.copyOfRange(material, 46, 60));
        // the certificate the server showed is the one whose fingerprint every answer carries
        assertThat(DtlsSrtpServer.matches(client.serverCertificate, DtlsSrtpServer.identity().fingerprint)).isTrue();
        assertThat(failed).isNotDone();
        server.close();
    }

    @Test
    void aBrowserWhoseCertificateIsNotTheOffersIsRefused() throws Exception {
        DtlsSrtpServer server = server(DtlsSrtpServer.generate().fingerprint);
        Browser impostor = new Browser(DtlsSrtpServer.generate());

        assertThatThrownBy(() -> impostor.connect(server)).isInstanceOf(IOException.class);

        assertThat(failed.get(10, TimeUnit.SECONDS)).contains("DTLS handshake failed");
        assertThat(secured).isNotDone();
        server.close();
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

    /** A browser's DTLS client: its own ECDSA certificate, SRTP_AES128_CM_HMAC_SHA1_80 offered. */
    private final class Browser extends DefaultTlsClient {

        private final DtlsSrtpServer.Identity identity;
        byte[] serverCertificate;
        byte[] material;

        Browser(DtlsSrtpServer.Identity identity) {
            super(new BcTlsCrypto(new SecureRandom()));
            this.identity = identity;
        }

        byte[] connect(DtlsSrtpServer server) throws IOException {
            new DTLSClientProtocol().connect(this, new DatagramTransport() {
                @Override
                public int getReceiveLimit() {
                    return 1500;
                }

                @Override
                public int getSendLimit() {
                    return 1200;
                }

                @Override
                public int receive(byte[] buf, int off, int len, int waitMillis) throws IOException {
                    try {
                        byte[] next = toClient.poll(waitMillis, TimeUnit.MILLISECONDS);
                        if (next == null) {
                            return -1;
                        }
                        System.arraycopy(next, 0, buf, off, next.length);
                        return next.length;
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }

                @Override
                public void send(byte[] buf, int off, int len) {
                    server.received(Arrays.copyOfRange(buf, off, off + len));
                }

                @Override
                public void close() {
                }
            });
            return material;
        }

        @Override
        protected ProtocolVersion[] getSupportedVersions() {
            return ProtocolVersion.DTLSv12.only();
        }

        @Override
        protected int[] getSupportedCipherSuites() {
            return new int[] {CipherSuite.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256};
        }

        @Override
        @SuppressWarnings({"rawtypes", "unchecked"})
        public Hashtable getClientExtensions() throws IOException {
            Hashtable extensions = super.getClientExtensions();
            TlsSRTPUtils.addUseSRTPExtension(extensions, new UseSRTPData(
                    new int[] {SRTPProtectionProfile.SRTP_AES128_CM_HMAC_SHA1_80}, TlsUtils.EMPTY_BYTES));
            return extensions;
        }

        @Override
        public TlsAuthentication getAuthentication() {
            return new TlsAuthentication() {
                @Override
                public void notifyServerCertificate(TlsServerCertificate certificate) throws IOException {
                    serverCertificate = certificate.getCertificate().getCertificateAt(0).getEncoded();
                }

                @Override
                public TlsCredentials getClientCredentials(CertificateRequest request) throws IOException {
                    TlsCertificate certificate = getCrypto().createCertificate(identity.der);
                    return new BcDefaultTlsCredentialedSigner(new TlsCryptoParameters(context),
                            (BcTlsCrypto) getCrypto(), identity.key, new Certificate(new TlsCertificate[] {certificate}),
                            SignatureAndHashAlgorithm.getInstance(HashAlgorithm.sha256, SignatureAlgorithm.ecdsa));
                }
            };
        }

        @Override
        public void notifyHandshakeComplete() throws IOException {
            super.notifyHandshakeComplete();
            material = context.exportKeyingMaterial(ExporterLabel.dtls_srtp, null, 60);
        }
    }
}
