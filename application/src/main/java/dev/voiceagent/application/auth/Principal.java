package dev.voiceagent.application.auth;

/** Who is calling, and the one organization every read and write of the request is scoped to. */
public record Principal(long userId, long organizationId, Method method) {

    public enum Method { API_KEY, SERVICE_KEY, TOKEN }
}
