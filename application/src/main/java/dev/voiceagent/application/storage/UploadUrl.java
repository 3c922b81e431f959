package dev.voiceagent.application.storage;

public record UploadUrl(String uploadUrl, String fileKey, long expiresIn) {
}
