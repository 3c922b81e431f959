package dev.voiceagent.application.shared;

/** The resource does not exist in the caller's organization (another organization's resource included). */
public class ResourceNotFoundException extends RuntimeException {

    public ResourceNotFoundException(String message) {
        super(message, null, false, false);
    }
}
