package dev.voiceagent.adapters.rest.shared;

import java.util.List;
import java.util.Set;

/**
 * The paths whose operations take no dashboard credentials: the documented ones (health, sign-up and log-in, the
 * templates and model defaults, everything under /api/v1/public/) and the routes that authenticate by other means
 * (the carriers' callbacks by signature, the payment provider's webhook, the local object store's signed links).
 * The authentication filter itself goes by the operations' annotations; this list answers where no operation was
 * matched yet (a request refused for its media type) and marks the document's operations.
 */
public final class PublicPaths {

    /** Documented operations without credentials. */
    public static final Set<String> DOCUMENTED = Set.of(
            "/api/v1/health", "/api/v1/health/active-calls", "/api/v1/health/autoscale-metric", "/api/v1/auth/signup",
            "/api/v1/auth/login", "/api/v1/workflow/templates",
            "/api/v1/user/configurations/defaults");
    /** Documented operations that take no dashboard credentials (a public agent trigger requires its own key). */
    public static final String PUBLIC_PREFIX = "/api/v1/public/";
    /** The public agent triggers: public routes that still require an API key of their own (X-API-Key). */
    public static final String KEYED_PREFIX = "/api/v1/public/agent/";
    /** Routes that authenticate by a signature instead (the carriers', the payment provider's, signed links). */
    static final List<String> SIGNED = List.of("/api/v1/telephony/", "/api/v1/billing/webhooks/",
            "/api/v1/object-store/local/");

    private PublicPaths() {
    }

    /** Whether a request to {@code path} needs an API key or a sign-in token (an anonymous one is a 401 first). */
    public static boolean needsCredentials(String path) {
        String p = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return path.startsWith(KEYED_PREFIX) || !DOCUMENTED.contains(p) && !path.startsWith(PUBLIC_PREFIX)
                && !signed(path);
    }

    /** Whether {@code path} authenticates by a signature rather than credentials. */
    public static boolean signed(String path) {
        return SIGNED.stream().anyMatch(path::startsWith);
    }
}
