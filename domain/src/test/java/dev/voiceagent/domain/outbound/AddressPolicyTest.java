package dev.voiceagent.domain.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class AddressPolicyTest {

    private static InetAddress ip(String literal) throws Exception {
        return InetAddress.getByName(literal);
    }

    @Test
    void privateLoopbackLinkLocalAndMetadataAddressesAreRefused() throws Exception {
        AddressPolicy strict = AddressPolicy.strict();
        for (String address : List.of("127.0.0.1", "10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254",
                "169.254.3.3", "::1", "fe80::1", "fd12::1", "100.64.0.1", "0.0.0.0", "::ffff:127.0.0.1",
                "::ffff:169.254.169.254")) {
            assertThat(strict.refusal("h", ip(address))).as(address).isPresent();
        }
        assertThat(strict.refusal("metadata", ip("169.254.169.254")).orElseThrow()).contains("cloud metadata");
        assertThat(strict.refusal("api.openai.com", ip("104.18.7.192"))).isEmpty();
        assertThat(strict.refusal("v6", ip("2606:4700::6810:1"))).isEmpty();
    }

    @Test
    void anInstallationCanAllowNamedHostsAndNetworks() throws Exception {
        AddressPolicy allowing = AddressPolicy.allowing(List.of("127.0.0.1", "10.0.0.0/8", "ollama.internal"));
        assertThat(allowing.refusal("localhost", ip("127.0.0.1"))).isEmpty();
        assertThat(allowing.refusal("x", ip("10.200.3.4"))).isEmpty();
        assertThat(allowing.refusal("ollama.internal", ip("192.168.5.5"))).isEmpty();
        assertThat(allowing.refusal("other.internal", ip("192.168.5.5"))).isPresent();
        assertThat(allowing.refusal("x", ip("127.0.0.2"))).isPresent();
    }
}
