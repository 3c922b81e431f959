package dev.voiceagent.adapters.media.webrtc;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.Hashtable;
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

/**
 * The DTLS side of DTLS-SRTP as a browser plays it (the DTLS client, {@code a=setup:active}): its own certificate,
 * SRTP_AES128_CM_HMAC_SHA1_80 offered, the SRTP master keys exported. The service's start-up self-check uses it
 * against {@link DtlsSrtpServer} ({@link WebRtcWarmUp}); the tests and the voice benchmark use it as the browser.
 */
final class DtlsSrtpClient extends DefaultTlsClient {

    private final DtlsSrtpServer.Identity identity;
    /** The server's certificate (DER), once the handshake saw it. */
    byte[] serverCertificate;
    private byte[] material;

    DtlsSrtpClient(DtlsSrtpServer.Identity identity) {
        super(new BcTlsCrypto(new SecureRandom()));
        this.identity = identity;
    }

    /** The handshake over {@code transport} (blocking); the SRTP keys both sides now hold. */
    DtlsSrtpServer.Keys connect(DatagramTransport transport) throws IOException {
        new DTLSClientProtocol().connect(this, transport);
        return new DtlsSrtpServer.Keys(material);
    }

    /** The 60 bytes of keying material exported (the keys and salts of both directions). */
    byte[] material() {
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
                // a browser checks it against the answer's fingerprint; the callers here keep it for that
                serverCertificate = certificate.getCertificate().getCertificateAt(0).getEncoded();
            }

            @Override
            public TlsCredentials getClientCredentials(CertificateRequest request) throws IOException {
                TlsCertificate certificate = getCrypto().createCertificate(identity.der);
                return new BcDefaultTlsCredentialedSigner(new TlsCryptoParameters(context), (BcTlsCrypto) getCrypto(),
                        identity.key, new Certificate(new TlsCertificate[] {certificate}),
                        SignatureAndHashAlgorithm.getInstance(HashAlgorithm.sha256, SignatureAlgorithm.ecdsa));
            }
        };
    }

    @Override
    public void notifyHandshakeComplete() throws IOException {
        super.notifyHandshakeComplete();
        material = context.exportKeyingMaterial(ExporterLabel.dtls_srtp, null,
                2 * (Srtp.KEY_LENGTH + Srtp.SALT_LENGTH));
    }
}
