package dev.voiceagent.adapters.media.webrtc;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.Hashtable;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Vector;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.generators.ECKeyPairGenerator;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.ECKeyGenerationParameters;
import org.bouncycastle.crypto.params.ECNamedDomainParameters;
import org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory;
import org.bouncycastle.operator.DefaultDigestAlgorithmIdentifierFinder;
import org.bouncycastle.operator.DefaultSignatureAlgorithmIdentifierFinder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.bc.BcECContentSignerBuilder;
import org.bouncycastle.tls.AlertDescription;
import org.bouncycastle.tls.AlertLevel;
import org.bouncycastle.tls.Certificate;
import org.bouncycastle.tls.CertificateRequest;
import org.bouncycastle.tls.CipherSuite;
import org.bouncycastle.tls.ClientCertificateType;
import org.bouncycastle.tls.DTLSServerProtocol;
import org.bouncycastle.tls.DTLSTransport;
import org.bouncycastle.tls.DatagramTransport;
import org.bouncycastle.tls.DefaultTlsServer;
import org.bouncycastle.tls.ExporterLabel;
import org.bouncycastle.tls.HashAlgorithm;
import org.bouncycastle.tls.ProtocolVersion;
import org.bouncycastle.tls.SRTPProtectionProfile;
import org.bouncycastle.tls.SignatureAlgorithm;
import org.bouncycastle.tls.SignatureAndHashAlgorithm;
import org.bouncycastle.tls.TlsCredentialedSigner;
import org.bouncycastle.tls.TlsFatalAlert;
import org.bouncycastle.tls.TlsSRTPUtils;
import org.bouncycastle.tls.TlsUtils;
import org.bouncycastle.tls.UseSRTPData;
import org.bouncycastle.tls.crypto.TlsCertificate;
import org.bouncycastle.tls.crypto.TlsCryptoParameters;
import org.bouncycastle.tls.crypto.impl.bc.BcDefaultTlsCredentialedSigner;
import org.bouncycastle.tls.crypto.impl.bc.BcTlsCrypto;

/**
 * The DTLS side of DTLS-SRTP (RFC 5764) for one call, this service as the DTLS server ({@code a=setup:passive}):
 * Bouncy Castle's DTLS 1.2 with an ECDSA P-256 certificate of this process (its SHA-256 fingerprint in every answer),
 * the browser's certificate required and checked against the fingerprint of its offer, SRTP_AES128_CM_HMAC_SHA1_80
 * negotiated, and the SRTP master keys exported. Bouncy Castle's handshake blocks on its datagrams: it runs on a
 * virtual thread of the call, fed the DTLS datagrams the call's socket receives ({@link #received}).
 */
final class DtlsSrtpServer {

    private static final System.Logger LOG = System.getLogger(DtlsSrtpServer.class.getName());
    private static final int MTU = 1200;
    private static Identity identity;

    /** The SRTP master keys: the browser's (DTLS client) for what it sends, this side's for what it receives. */
    static final class Keys {
        final byte[] clientKey;
        final byte[] clientSalt;
        final byte[] serverKey;
        final byte[] serverSalt;

        Keys(byte[] material) {
            int k = Srtp.KEY_LENGTH;
            int s = Srtp.SALT_LENGTH;
            clientKey = Arrays.copyOfRange(material, 0, k);
            serverKey = Arrays.copyOfRange(material, k, 2 * k);
            clientSalt = Arrays.copyOfRange(material, 2 * k, 2 * k + s);
            serverSalt = Arrays.copyOfRange(material, 2 * k + s, 2 * k + 2 * s);
        }
    }

    /** What the handshake tells its call, on the handshake's thread. */
    interface Listener {
        void secured(Keys keys);

        void failed(String why);

        /** The browser closed the association (close_notify) or it broke after the handshake. */
        void closed();
    }

    /** This process's certificate and key: generated once (about 5 ms), renewed a day before it expires. */
    static final class Identity {
        final AsymmetricKeyParameter key;
        final byte[] der;
        final Instant expires;
        /** "sha-256 AB:CD:..." for the SDP's a=fingerprint. */
        final String fingerprint;

        Identity(AsymmetricKeyParameter key, byte[] der, Instant expires) {
            this.key = key;
            this.der = der;
            this.expires = expires;
            this.fingerprint = "sha-256 " + colonHex(digest("SHA-256", der));
        }
    }

    static synchronized Identity identity() {
        if (identity == null || Instant.now().isAfter(identity.expires.minus(Duration.ofDays(1)))) {
            identity = generate();
        }
        return identity;
    }

    static Identity generate() {
        SecureRandom random = new SecureRandom();
        ECKeyPairGenerator generator = new ECKeyPairGenerator();
        // Bouncy Castle's P-256 of its own (CustomNamedCurves): each handshake's signature about four times faster than
        // on the generic curve ECNamedCurveTable gives; the certificate names the same curve
        generator.init(new ECKeyGenerationParameters(new ECNamedDomainParameters(SECObjectIdentifiers.secp256r1,
                CustomNamedCurves.getByOID(SECObjectIdentifiers.secp256r1)), random));
        AsymmetricCipherKeyPair pair = generator.generateKeyPair();
        Instant now = Instant.now();
        Instant expires = now.plus(Duration.ofDays(30));
        X500Name name = new X500Name("CN=voice-agent-webrtc");
        try {
            AlgorithmIdentifier signature = new DefaultSignatureAlgorithmIdentifierFinder().find("SHA256withECDSA");
            byte[] der = new X509v3CertificateBuilder(name, new BigInteger(63, random).add(BigInteger.ONE),
                    Date.from(now.minus(Duration.ofDays(1))), Date.from(expires), name,
                    SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(pair.getPublic()))
                    .build(new BcECContentSignerBuilder(signature,
                            new DefaultDigestAlgorithmIdentifierFinder().find(signature)).build(pair.getPrivate()))
                    .getEncoded();
            return new Identity(pair.getPrivate(), der, expires);
        } catch (IOException | OperatorCreationException e) {
            throw new IllegalStateException("the WebRTC certificate could not be made", e);
        }
    }

    private final BlockingQueue<byte[]> inbox = new LinkedBlockingQueue<>();
    private final Consumer<byte[]> send;
    private final String remoteFingerprint;
    private final Listener listener;
    private volatile boolean closed;

    /**
     * @param send sends a datagram to the browser (from the handshake's thread)
     * @param remoteFingerprint the offer's {@code a=fingerprint} value, "sha-256 AB:CD:..."
     */
    DtlsSrtpServer(Consumer<byte[]> send, String remoteFingerprint, Listener listener) {
        this.send = send;
        this.remoteFingerprint = remoteFingerprint;
        this.listener = listener;
    }

    /** A DTLS datagram from the browser (RFC 7983: first byte 20..63). */
    void received(byte[] datagram) {
        if (!closed) {
            inbox.add(datagram);
        }
    }

    /** Starts the handshake on a virtual thread; once secured, the thread keeps answering the browser's records. */
    void start(String name) {
        Thread.ofVirtual().name(name).start(this::run);
    }

    void close() {
        closed = true;
        inbox.add(new byte[0]);
    }

    private void run() {
        Identity ours = identity();
        DTLSTransport dtls;
        try {
            DTLSServerProtocol protocol = new DTLSServerProtocol();
            protocol.setVerifyRequests(false); // ICE has checked the browser's address already
            dtls = protocol.accept(new Server(ours), new Transport());
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                listener.failed("DTLS handshake failed: " + e.getMessage());
            }
            return;
        }
        // after the handshake: retransmitted flights are answered and the browser's close_notify is seen here
        byte[] buffer = new byte[MTU + 100];
        try {
            while (!closed) {
                dtls.receive(buffer, 0, buffer.length, 1000);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "DTLS association ended: {0}", e.toString());
            if (!closed) {
                listener.closed();
            }
        } finally {
            try {
                dtls.close();
            } catch (IOException ignored) {
                // the association is gone either way
            }
        }
    }

    /** The datagrams of the call's socket, as Bouncy Castle's blocking transport. */
    private final class Transport implements DatagramTransport {

        @Override
        public int getReceiveLimit() {
            return MTU + 100;
        }

        @Override
        public int getSendLimit() {
            return MTU;
        }

        @Override
        public int receive(byte[] buf, int off, int len, int waitMillis) throws IOException {
            if (closed) {
                throw new IOException("the call ended");
            }
            byte[] next;
            try {
                next = inbox.poll(waitMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            if (next == null) {
                return -1;
            }
            if (next.length == 0 || closed) {
                throw new IOException("the call ended");
            }
            int size = Math.min(len, next.length);
            System.arraycopy(next, 0, buf, off, size);
            return size;
        }

        @Override
        public void send(byte[] buf, int off, int len) {
            if (!closed) {
                DtlsSrtpServer.this.send.accept(Arrays.copyOfRange(buf, off, off + len));
            }
        }

        @Override
        public void close() {
            // the call's socket is the call's to close
        }
    }

    /** Bouncy Castle's server: DTLS 1.2, ECDSA, the browser's certificate required, use_srtp. */
    private final class Server extends DefaultTlsServer {

        private final Identity ours;

        Server(Identity ours) {
            super(new BcTlsCrypto(new SecureRandom()));
            this.ours = ours;
        }

        @Override
        protected ProtocolVersion[] getSupportedVersions() {
            return ProtocolVersion.DTLSv12.only();
        }

        @Override
        protected int[] getSupportedCipherSuites() {
            return TlsUtils.getSupportedCipherSuites(getCrypto(), new int[] {
                    CipherSuite.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
                    CipherSuite.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
                    CipherSuite.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
                    CipherSuite.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA});
        }

        @Override
        public int getHandshakeTimeoutMillis() {
            return 15_000;
        }

        @Override
        protected TlsCredentialedSigner getECDSASignerCredentials() throws IOException {
            TlsCertificate certificate = getCrypto().createCertificate(ours.der);
            return new BcDefaultTlsCredentialedSigner(new TlsCryptoParameters(context), (BcTlsCrypto) getCrypto(),
                    ours.key, new Certificate(new TlsCertificate[] {certificate}),
                    SignatureAndHashAlgorithm.getInstance(HashAlgorithm.sha256, SignatureAlgorithm.ecdsa));
        }

        @Override
        public CertificateRequest getCertificateRequest() {
            Vector<SignatureAndHashAlgorithm> algorithms = new Vector<>();
            for (short hash : new short[] {HashAlgorithm.sha256, HashAlgorithm.sha384, HashAlgorithm.sha512}) {
                algorithms.add(SignatureAndHashAlgorithm.getInstance(hash, SignatureAlgorithm.ecdsa));
                algorithms.add(SignatureAndHashAlgorithm.getInstance(hash, SignatureAlgorithm.rsa));
            }
            return new CertificateRequest(new short[] {ClientCertificateType.ecdsa_sign,
                    ClientCertificateType.rsa_sign}, algorithms, null);
        }

        /** The browser's certificate must be the one its offer's fingerprint names (RFC 8122). */
        @Override
        public void notifyClientCertificate(Certificate certificate) throws IOException {
            if (certificate == null || certificate.isEmpty() || !matches(certificate.getCertificateAt(0)
                    .getEncoded(), remoteFingerprint)) {
                throw new TlsFatalAlert(AlertDescription.bad_certificate, "not the certificate of the offer");
            }
        }

        @Override
        @SuppressWarnings("rawtypes")
        public void processClientExtensions(Hashtable clientExtensions) throws IOException {
            super.processClientExtensions(clientExtensions);
            UseSRTPData offered = TlsSRTPUtils.getUseSRTPExtension(clientExtensions);
            if (offered == null || Arrays.stream(offered.getProtectionProfiles())
                    .noneMatch(p -> p == SRTPProtectionProfile.SRTP_AES128_CM_HMAC_SHA1_80)) {
                throw new TlsFatalAlert(AlertDescription.handshake_failure, "no SRTP_AES128_CM_HMAC_SHA1_80 offered");
            }
        }

        @Override
        @SuppressWarnings({"rawtypes", "unchecked"})
        public Hashtable getServerExtensions() throws IOException {
            Hashtable extensions = super.getServerExtensions();
            TlsSRTPUtils.addUseSRTPExtension(extensions, new UseSRTPData(
                    new int[] {SRTPProtectionProfile.SRTP_AES128_CM_HMAC_SHA1_80}, TlsUtils.EMPTY_BYTES));
            return extensions;
        }

        @Override
        public void notifyHandshakeComplete() throws IOException {
            super.notifyHandshakeComplete();
            listener.secured(new Keys(context.exportKeyingMaterial(ExporterLabel.dtls_srtp, null,
                    2 * (Srtp.KEY_LENGTH + Srtp.SALT_LENGTH))));
        }

        @Override
        public void notifyAlertReceived(short level, short description) {
            if (description == AlertDescription.close_notify || level == AlertLevel.fatal) {
                closed();
            }
        }

        private void closed() {
            if (!closed) {
                closed = true;
                inbox.add(new byte[0]);
                listener.closed();
            }
        }
    }

    /** Whether {@code der}'s digest is the fingerprint "algorithm AB:CD:..." (sha-1, sha-256, sha-384, sha-512). */
    static boolean matches(byte[] der, String fingerprint) {
        if (fingerprint == null) {
            return false;
        }
        String[] parts = fingerprint.strip().split("\\s+", 2);
        if (parts.length != 2) {
            return false;
        }
        String algorithm = switch (parts[0].toLowerCase(Locale.ROOT)) {
            case "sha-1" -> "SHA-1";
            case "sha-256" -> "SHA-256";
            case "sha-384" -> "SHA-384";
            case "sha-512" -> "SHA-512";
            default -> null;
        };
        return algorithm != null && colonHex(digest(algorithm, der)).equalsIgnoreCase(parts[1].strip());
    }

    private static byte[] digest(String algorithm, byte[] data) {
        try {
            return MessageDigest.getInstance(algorithm).digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm + " is part of every Java runtime", e);
        }
    }

    private static String colonHex(byte[] bytes) {
        return HexFormat.ofDelimiter(":").withUpperCase().formatHex(bytes);
    }
}
