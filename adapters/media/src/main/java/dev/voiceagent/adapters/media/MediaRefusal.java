package dev.voiceagent.adapters.media;

import dev.voiceagent.application.shared.AuthenticationException;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.shared.PaymentRequiredException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * A media socket refused before its upgrade, as the HTTP answer says it: a status and {@code {"detail": ...}}. The one
 * mapping of an admission's failures for the carriers' media route and the browsers' voice and signaling routes: a
 * caller not known 401, no credits left 402, a wrong token or another page 403, a run not found 404, a run completed
 * or connected already 409; anything else is this side's trouble, a 503 whose detail says only that the media could
 * not be connected (the failure is logged as a warning).
 */
record MediaRefusal(int status, String detail) {

    private static final System.Logger LOG = System.getLogger(MediaRefusal.class.getName());
    static final String UNAVAILABLE = "The media could not be connected";

    /**
     * The refusal an admission's failure is.
     *
     * @param media what was refused, for the log of a 503 ("media of run 7", "browser media")
     */
    static MediaRefusal of(Throwable failure, String media) {
        int status = switch (failure) {
            case AuthenticationException e -> 401;
            case PaymentRequiredException e -> 402;
            case ForbiddenException e -> 403;
            case ResourceNotFoundException e -> 404;
            case ConflictException e -> 409;
            default -> 503;
        };
        if (status == 503) {
            LOG.log(System.Logger.Level.WARNING, "{0} refused: {1}", media, failure.toString());
            return new MediaRefusal(503, UNAVAILABLE);
        }
        return new MediaRefusal(status, failure.getMessage());
    }

    /** How soon a caller refused for this side's trouble may try again (seconds), as the API's own 503s say. */
    static final String RETRY_AFTER = "5";

    /** Answers the upgrade request with this refusal (a 503 says when to try again, as the service's other 503s). */
    void send(RoutingContext rc) {
        if (status == 503) {
            rc.response().putHeader("Retry-After", RETRY_AFTER);
        }
        rc.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("detail", detail).encode());
    }
}
