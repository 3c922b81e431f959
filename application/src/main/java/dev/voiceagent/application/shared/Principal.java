package dev.voiceagent.application.shared;

/**
 * Who is calling, and the one organization every read and write of the request is scoped to; {@code keyId} names
 * the API key or service key used ("api_key:12", "service_key:3"), null for a signed-in user's token.
 */
public record Principal(long userId, long organizationId, Method method, String keyId) {

    public enum Method { API_KEY, SERVICE_KEY, TOKEN }

    public Principal(long userId, long organizationId, Method method) {
        this(userId, organizationId, method, null);
    }
}
