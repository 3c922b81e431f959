package dev.voiceagent.domain.outbound;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Where a request a tenant can aim (a model's base URL, a tool, a webhook, an MCP server) may go: never
 * to this machine, the private network, link-local or cloud-metadata addresses, whatever the name
 * resolved to, unless the installation allows that host or network by name (a self-hosted installation
 * calling its own services). Adapters resolve the name, ask this rule for every address before
 * connecting, and again on every redirect.
 */
public final class AddressPolicy {

    /** A network in CIDR form. */
    private record Network(byte[] prefix, int bits) {

        boolean contains(InetAddress address) {
            byte[] a = address.getAddress();
            if (a.length != prefix.length) {
                return false;
            }
            int full = bits / 8;
            for (int i = 0; i < full; i++) {
                if (a[i] != prefix[i]) {
                    return false;
                }
            }
            int rest = bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xff << (8 - rest) & 0xff;
            return (a[full] & mask) == (prefix[full] & mask);
        }
    }

    private static final List<Network> METADATA = List.of(network("169.254.169.254/32"), network("fd00:ec2::254/128"),
            network("100.100.100.200/32"));
    private static final List<Network> SHARED = List.of(network("100.64.0.0/10"), network("fc00::/7"),
            network("0.0.0.0/8"));

    private final Set<String> allowedHosts;
    private final List<Network> allowedNetworks;

    private AddressPolicy(Set<String> allowedHosts, List<Network> allowedNetworks) {
        this.allowedHosts = allowedHosts;
        this.allowedNetworks = allowedNetworks;
    }

    /** The installation's allow-list: host names ("ollama.internal") and networks ("10.0.0.0/8", "127.0.0.1"). */
    public static AddressPolicy allowing(List<String> entries) {
        HashSet<String> hosts = new HashSet<>();
        List<Network> networks = new ArrayList<>();
        for (String raw : entries) {
            String entry = raw.strip().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.contains("/") || isLiteral(entry)) {
                networks.add(network(entry.contains("/") ? entry : entry + (entry.contains(":") ? "/128" : "/32")));
            } else {
                hosts.add(entry);
            }
        }
        return new AddressPolicy(Set.copyOf(hosts), List.copyOf(networks));
    }

    public static AddressPolicy strict() {
        return new AddressPolicy(Set.of(), List.of());
    }

    /** Why a request to {@code host} at {@code address} is refused; empty when it may go. */
    public Optional<String> refusal(String host, InetAddress address) {
        InetAddress a = unmapped(address);
        String name = host == null ? "" : host.toLowerCase(Locale.ROOT);
        if (allowedHosts.contains(name) || allowedNetworks.stream().anyMatch(n -> n.contains(a))) {
            return Optional.empty();
        }
        String kind = null;
        if (METADATA.stream().anyMatch(n -> n.contains(a))) {
            kind = "a cloud metadata address";
        } else if (a.isLoopbackAddress()) {
            kind = "a loopback address";
        } else if (a.isAnyLocalAddress()) {
            kind = "an unspecified address";
        } else if (a.isLinkLocalAddress()) {
            kind = "a link-local address";
        } else if (a.isSiteLocalAddress() || SHARED.stream().anyMatch(n -> n.contains(a))) {
            kind = "a private address";
        } else if (a.isMulticastAddress()) {
            kind = "a multicast address";
        }
        return kind == null ? Optional.empty() : Optional.of(host + " resolves to " + a.getHostAddress() + ", " + kind
                + ": not allowed for outbound requests (an installation can allow it in voiceagent.outbound.allowed)");
    }

    /** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address it carries. */
    private static InetAddress unmapped(InetAddress address) {
        if (address instanceof Inet6Address v6) {
            byte[] b = v6.getAddress();
            boolean mapped = true;
            for (int i = 0; i < 10; i++) {
                mapped &= b[i] == 0;
            }
            if (mapped && b[10] == (byte) 0xff && b[11] == (byte) 0xff) {
                try {
                    return InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
                } catch (UnknownHostException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return address;
    }

    private static boolean isLiteral(String entry) {
        return entry.matches("[0-9.]+") || entry.contains(":");
    }

    private static Network network(String cidr) {
        int slash = cidr.indexOf('/');
        String literal = cidr.substring(0, slash);
        int bits = Integer.parseInt(cidr.substring(slash + 1));
        if (!isLiteral(literal)) {
            throw new IllegalArgumentException("not an IP network: " + cidr);
        }
        try {
            // a literal address: no name service is asked
            InetAddress address = InetAddress.getByName(literal);
            int max = address instanceof Inet4Address ? 32 : 128;
            if (bits < 0 || bits > max) {
                throw new IllegalArgumentException("bad prefix length: " + cidr);
            }
            return new Network(address.getAddress(), bits);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP network: " + cidr, e);
        }
    }
}
