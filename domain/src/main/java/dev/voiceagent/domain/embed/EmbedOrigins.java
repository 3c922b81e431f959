package dev.voiceagent.domain.embed;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/**
 * Whether a page may use an embed token: its origin (the Origin header, else the Referer's) against the
 * token's allowed domains. No domains, or "*", allow any page; "*.example.com" allows the apex and every
 * sub-domain; "example.com" and "www.example.com" are the same; a port in an entry must match.
 */
public final class EmbedOrigins {

    private EmbedOrigins() {
    }

    public static boolean allowed(String origin, List<String> allowedDomains) {
        if (allowedDomains == null || allowedDomains.isEmpty()) {
            return true;
        }
        HostPort page = parse(origin);
        if (page == null) {
            return false;
        }
        for (String entry : allowedDomains) {
            String allowed = entry == null ? "" : entry.strip().toLowerCase(Locale.ROOT);
            if (allowed.equals("*")) {
                return true;
            }
            HostPort rule = parse(allowed);
            if (rule == null || rule.port() != null && !rule.port().equals(page.port())) {
                continue;
            }
            if (rule.host().startsWith("*.")) {
                String base = rule.host().substring(2);
                if (page.host().equals(base) || page.host().endsWith("." + base)) {
                    return true;
                }
            } else if (withoutWww(rule.host()).equals(withoutWww(page.host()))) {
                return true;
            }
        }
        return false;
    }

    private static String withoutWww(String host) {
        return host.startsWith("www.") ? host.substring(4) : host;
    }

    private record HostPort(String host, Integer port) {
    }

    /** The host (lower case, no trailing dot) and explicit port of an origin, a URL or a bare host[:port]. */
    private static HostPort parse(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String candidate = value.strip().toLowerCase(Locale.ROOT);
        boolean wildcard = candidate.startsWith("*.");
        if (wildcard) {
            candidate = "wildcard-placeholder." + candidate.substring(2);
        }
        if (!candidate.contains("://")) {
            candidate = "http://" + candidate;
        }
        try {
            URI uri = new URI(candidate);
            String host = uri.getHost();
            if (host == null || host.isEmpty()) {
                return null;
            }
            if (host.endsWith(".")) {
                host = host.substring(0, host.length() - 1);
            }
            if (wildcard) {
                host = "*." + host.substring("wildcard-placeholder.".length());
            }
            return new HostPort(host, uri.getPort() < 0 ? null : uri.getPort());
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
