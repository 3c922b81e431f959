package dev.voiceagent.adapters.rest.idempotency;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.idempotency.RunIdempotentlyUseCase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Supplier;

/**
 * The Idempotency-Key header of the operations that create or start something: the request (its
 * operation, target and parsed body, re-serialized so that formatting does not matter) is
 * fingerprinted, and the response is stored and replayed as JSON of its own type.
 */
@ApplicationScoped
public class Idempotency {

    public static final String HEADER = "Idempotency-Key";

    private final RunIdempotentlyUseCase requests;
    private final ObjectMapper json;

    public Idempotency(RunIdempotentlyUseCase requests, ObjectMapper json) {
        this.requests = requests;
        this.json = json;
    }

    public <T> Uni<T> run(Principal principal, String key, String operation, Object request, Class<T> type,
            Supplier<Uni<T>> action) {
        if (key == null) {
            return action.get();
        }
        return requests.run(principal.organizationId(), key, operation + ":" + sha256(request),
                response -> write(response), stored -> read(stored, type), action);
    }

    private String sha256(Object request) {
        try {
            byte[] body = request == null ? new byte[0] : json.writeValueAsBytes(request);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private String write(Object response) {
        try {
            return new String(json.writeValueAsBytes(response), StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private <T> T read(String stored, Class<T> type) {
        try {
            return json.readValue(stored, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
