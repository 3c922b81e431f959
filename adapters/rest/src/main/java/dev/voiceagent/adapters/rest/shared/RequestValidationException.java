package dev.voiceagent.adapters.rest.shared;

import java.util.List;

/** A request value the adapter could not accept (bad path, query or header value): a 422. */
public class RequestValidationException extends RuntimeException {

    private final transient List<ValidationError> errors;

    public RequestValidationException(List<ValidationError> errors) {
        super(errors.getFirst().msg(), null, false, false);
        this.errors = List.copyOf(errors);
    }

    public RequestValidationException(ValidationError error) {
        this(List.of(error));
    }

    public List<ValidationError> errors() {
        return errors;
    }
}
