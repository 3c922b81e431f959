package dev.voiceagent.adapters.outbound;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** A multipart/form-data body (RFC 7578): text fields and files, then {@link #bytes()} and {@link #contentType()}. */
final class MultipartBody {

    private final String boundary = "----voiceagent" + UUID.randomUUID().toString().replace("-", "");
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    MultipartBody field(String name, String value) {
        write("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n");
        return this;
    }

    MultipartBody file(String name, String filename, String contentType, byte[] content) {
        write("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"; filename=\""
                + filename.replace("\"", "") + "\"\r\nContent-Type: " + contentType + "\r\n\r\n");
        out.writeBytes(content);
        write("\r\n");
        return this;
    }

    String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    /** The body, closed by its final boundary. */
    byte[] bytes() {
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        copy.writeBytes(out.toByteArray());
        copy.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return copy.toByteArray();
    }

    private void write(String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
}
