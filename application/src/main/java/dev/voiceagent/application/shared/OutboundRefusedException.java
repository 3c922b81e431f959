package dev.voiceagent.application.shared;

/**
 * A request the service would make for a tenant was refused before it left: its address is not allowed (a
 * loopback, private, link-local or metadata address, after resolution or on a redirect) or it is not an http(s)
 * URL. A 400 with the reason: the tenant's configuration is at fault, not an outside service.
 */
public class OutboundRefusedException extends RuntimeException {

    public OutboundRefusedException(String message) {
        super(message, null, false, false);
    }
}
