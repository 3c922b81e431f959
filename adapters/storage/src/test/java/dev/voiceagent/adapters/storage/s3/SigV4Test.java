package dev.voiceagent.adapters.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The signer against the worked example of AWS's "Authenticating Requests: Using Query Parameters". */
class SigV4Test {

    @Test
    void thePresignedUrlOfTheAwsExampleHasItsSignature() {
        SigV4 signer = new SigV4("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "us-east-1");
        String url = signer.presign("GET", URI.create("https://examplebucket.s3.amazonaws.com"), "/test.txt", Map.of(),
                Instant.parse("2013-05-24T00:00:00Z"), 86400);
        assertThat(url).isEqualTo("https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404");
    }

    @Test
    void pathsKeepTheirSlashesAndEncodeEverythingElse() {
        assertThat(SigV4.encodePath("campaigns/7/a b+ü.csv")).isEqualTo("campaigns/7/a%20b%2B%C3%BC.csv");
        assertThat(SigV4.host(URI.create("http://localhost:9000"))).isEqualTo("localhost:9000");
        assertThat(SigV4.host(URI.create("https://s3.amazonaws.com:443"))).isEqualTo("s3.amazonaws.com");
    }
}
