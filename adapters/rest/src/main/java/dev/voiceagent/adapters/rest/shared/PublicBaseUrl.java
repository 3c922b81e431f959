package dev.voiceagent.adapters.rest.shared;

import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Where clients reach this service: the configured {@code voiceagent.public-base-url} (behind a proxy or
 * an ingress), else the address it really listens on: http://localhost and the port the request came in
 * on. Never a fixed string.
 */
@Singleton
public class PublicBaseUrl {

    private final Optional<String> configured;

    public PublicBaseUrl(@ConfigProperty(name = "voiceagent.public-base-url") Optional<String> configured) {
        this.configured = configured.map(String::strip).filter(url -> !url.isEmpty())
                .map(url -> url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
    }

    /** The base URL without a trailing slash. */
    public String of(HttpServerRequest request) {
        return configured.orElseGet(() -> (request.isSSL() ? "https" : "http") + "://localhost:"
                + request.localAddress().port());
    }
}
