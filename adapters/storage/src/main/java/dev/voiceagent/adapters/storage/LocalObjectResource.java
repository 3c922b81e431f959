package dev.voiceagent.adapters.storage;

import io.smallrye.common.annotation.Blocking;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.Map;

/**
 * The local store's signed URLs: PUT stores the body (at most the signed size), GET serves the file.
 * The signature is the only credential (checked before anything is read or written).
 */
@Path(LocalObjectStore.ROUTE + "{key: .+}")
@PermitAll
public class LocalObjectResource {

    private final LocalObjectStore store;
    private final UrlSigner signer;
    private final Clock clock;

    public LocalObjectResource(LocalObjectStore store, UrlSigner signer, Clock clock) {
        this.store = store;
        this.signer = signer;
        this.clock = clock;
    }

    @PUT
    @Blocking
    public Response upload(@PathParam("key") String key, @QueryParam("expires") long expires, @QueryParam("max") long max,
            @QueryParam("signature") String signature, @HeaderParam("Content-Type") String contentType, InputStream body)
            throws IOException {
        if (!signer.valid("PUT", key, expires, String.valueOf(max), signature, clock.instant())) {
            return error(403, "Invalid or expired signature");
        }
        java.nio.file.Path file = store.file(key);
        Files.createDirectories(file.getParent());
        java.nio.file.Path partial = Files.createTempFile(file.getParent(), ".upload", ".part");
        try {
            long written = 0;
            try (OutputStream out = Files.newOutputStream(partial)) {
                byte[] buffer = new byte[64 * 1024];
                for (int n; (n = body.read(buffer)) > 0; ) {
                    written += n;
                    if (written > max) {
                        return error(413, "The file is larger than the " + max + " bytes this URL allows");
                    }
                    out.write(buffer, 0, n);
                }
            }
            if (written == 0) {
                return error(400, "The file is empty");
            }
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Files.writeString(store.metaFile(key), contentType == null ? "application/octet-stream" : contentType);
            return Response.ok(Map.of("key", key, "size", written)).type(MediaType.APPLICATION_JSON).build();
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    @GET
    @Blocking
    public Response download(@PathParam("key") String key, @QueryParam("expires") long expires,
            @QueryParam("inline") boolean inline, @QueryParam("signature") String signature) throws IOException {
        if (!signer.valid("GET", key, expires, String.valueOf(inline), signature, clock.instant())) {
            return error(403, "Invalid or expired signature");
        }
        java.nio.file.Path file = store.file(key);
        if (!Files.isRegularFile(file)) {
            return error(404, "Not Found");
        }
        java.nio.file.Path meta = store.metaFile(key);
        String type = Files.exists(meta) ? Files.readString(meta).strip() : MediaType.APPLICATION_OCTET_STREAM;
        return Response.ok(file.toFile()).type(type).header("Content-Disposition",
                (inline ? "inline" : "attachment") + "; filename=\"" + file.getFileName() + "\"").build();
    }

    private static Response error(int status, String detail) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(Map.of("detail", detail)).build();
    }
}
