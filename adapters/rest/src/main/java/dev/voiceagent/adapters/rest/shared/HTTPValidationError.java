package dev.voiceagent.adapters.rest.shared;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The 422 body: {"detail": [ValidationError, ...]}. */
@Schema(name = "HTTPValidationError", title = "HTTPValidationError")
public record HTTPValidationError(@Schema(title = "Detail") List<ValidationError> detail) {
}
