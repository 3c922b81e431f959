package dev.voiceagent.adapters.rest.shared;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One failed check: where (loc, e.g. ["body", "name"] or ["query", "buffer"]), what and why. */
@Schema(name = "ValidationError", title = "ValidationError")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ValidationError(@Schema(required = true, title = "Location", type = SchemaType.ARRAY,
                implementation = Object.class) List<Object> loc,
        @Schema(required = true, title = "Message") String msg,
        @Schema(required = true, title = "Error Type") String type,
        @Schema(title = "Input") Object input,
        @Schema(title = "Context") Map<String, Object> ctx) {

    public static ValidationError of(List<Object> loc, String msg, String type, Object input) {
        return new ValidationError(loc, msg, type, input, null);
    }
}
