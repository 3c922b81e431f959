package dev.voiceagent.adapters.telephony;

import dev.voiceagent.application.call.CallGatewayException;
import jakarta.ws.rs.WebApplicationException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** What every carrier's gateway says the same way: its HTTP Basic header, its refusals, a call it no longer knows. */
public final class CarrierApis {

    /** A call cannot be placed where nothing would carry its media. */
    public static final String NO_RUNTIME = "No voice runtime address is configured (voiceagent.voice-runtime.url or"
            + " voiceagent.public-base-url): the call would have no media";

    private CarrierApis() {
    }

    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The carrier answered 404: the call (or session) is gone already. */
    public static boolean notFound(Throwable failure) {
        return failure instanceof WebApplicationException web && web.getResponse() != null
                && web.getResponse().getStatus() == 404;
    }

    /** A failure of a request to {@code carrier} as a {@link CallGatewayException}: its HTTP status, or unreachable. */
    public static Throwable refused(String carrier, Throwable failure) {
        if (failure instanceof CallGatewayException) {
            return failure;
        }
        if (failure instanceof WebApplicationException web && web.getResponse() != null) {
            return new CallGatewayException(carrier + " answered HTTP " + web.getResponse().getStatus(), failure);
        }
        return new CallGatewayException(carrier + " could not be reached", failure);
    }
}
