package dev.voiceagent.application.auth;

/** What a request presented: the X-API-Key header and/or the authorization header (either may be null). */
public record Credentials(String apiKey, String authorization) {
}
