package dev.voiceagent.adapters.rest.shared;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.voiceagent.application.call.CallGatewayException;
import dev.voiceagent.application.call.ConcurrencyLimitException;
import dev.voiceagent.application.conversation.RevisionConflictException;
import dev.voiceagent.application.embed.ConversationEndedException;
import dev.voiceagent.application.embed.TooManyRequestsException;
import dev.voiceagent.application.health.ServiceUnavailableException;
import dev.voiceagent.application.model.InvalidModelConfigurationException;
import dev.voiceagent.application.shared.AuthenticationException;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.DatabaseUnavailableException;
import dev.voiceagent.application.idempotency.IdempotencyKeyReusedException;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.shared.OutboundRefusedException;
import dev.voiceagent.application.shared.PaymentRequiredException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.application.workflow.InvalidWorkflowException;
import dev.voiceagent.adapters.rest.workflow.WorkflowResponses.ValidateWorkflowResponse;
import dev.voiceagent.domain.conversation.TurnLimitReached;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.tool.InvalidToolDefinition;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one place where failures become HTTP. Typed application and domain failures keep their
 * message; validation failures become the 422 list; anything unexpected is a 500 with a generic
 * detail and a correlation id in the log (no stack trace ever reaches the client).
 */
public class ErrorMapper {

    private static final Logger LOG = Logger.getLogger(ErrorMapper.class);

    @ServerExceptionMapper
    public Response notFound(ResourceNotFoundException e) {
        return detail(Response.Status.NOT_FOUND, e.getMessage());
    }

    @ServerExceptionMapper
    public Response conflict(ConflictException e) {
        return detail(Response.Status.CONFLICT, e.getMessage());
    }

    /** A service of the moment out of reach: 503 with its own detail, and Retry-After when the database is why. */
    @ServerExceptionMapper
    public Response unavailable(ServiceUnavailableException e) {
        if (e.getCause() != null) {
            LOG.warnf("%s: %s", e.getMessage(), e.getCause().toString());
        }
        Response response = detail(Response.Status.SERVICE_UNAVAILABLE, e.getMessage());
        return causeOfType(e, DatabaseUnavailableException.class) == null ? response
                : Response.fromResponse(response).header("Retry-After", RETRY_AFTER_SECONDS).build();
    }

    /** A key reused for another request: the 422 list, pointing at the header. */
    @ServerExceptionMapper
    public Response idempotencyKeyReused(IdempotencyKeyReusedException e) {
        return unprocessable(List.of(ValidationError.of(List.of("header", "Idempotency-Key"), e.getMessage(),
                "idempotency_key_reused", null)));
    }

    @ServerExceptionMapper
    public Response unauthenticated(AuthenticationException e) {
        return detail(Response.Status.UNAUTHORIZED, e.getMessage());
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return detail(Response.Status.FORBIDDEN, e.getMessage());
    }

    @ServerExceptionMapper
    public Response concurrencyLimit(ConcurrencyLimitException e) {
        return detail(429, e.getMessage());
    }

    /** Credits are enforced and the organization's balance is exhausted. */
    @ServerExceptionMapper
    public Response paymentRequired(PaymentRequiredException e) {
        return detail(402, e.getMessage());
    }

    @ServerExceptionMapper
    public Response gatewayRefused(CallGatewayException e) {
        return detail(Response.Status.BAD_REQUEST, "Call initiation failed: " + e.getMessage());
    }

    /** A model configuration refused field by field: the 422 list, each problem at its location. */
    @ServerExceptionMapper
    public Response invalidModelConfiguration(InvalidModelConfigurationException e) {
        return unprocessable(e.problems().stream()
                .map(p -> ValidationError.of(p.loc(), p.msg(), p.type(), p.input())).toList());
    }

    /** A tool definition refused field by field: the 422 list, each problem at its location. */
    @ServerExceptionMapper
    public Response invalidToolDefinition(InvalidToolDefinition e) {
        return unprocessable(e.problems().stream()
                .map(p -> ValidationError.of(p.loc(), p.msg(), p.type(), p.input())).toList());
    }

    /** A request the service would make for a tenant, refused by the address guard: the tenant's input, a 400. */
    @ServerExceptionMapper
    public Response outboundRefused(OutboundRefusedException e) {
        return detail(Response.Status.BAD_REQUEST, e.getMessage());
    }

    /** An outside service (a model provider) failed or refused: 502 with its message, never a 500. */
    @ServerExceptionMapper
    public Response upstream(UpstreamServiceException e) {
        return detail(Response.Status.BAD_GATEWAY, e.getMessage());
    }

    /** The reference's 409: {"detail": {"message", "expected_revision", "actual_revision"}}. */
    @ServerExceptionMapper
    public Response revisionConflict(RevisionConflictException e) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("message", e.getMessage());
        detail.put("expected_revision", e.expectedRevision());
        detail.put("actual_revision", e.actualRevision());
        return Response.status(Response.Status.CONFLICT).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("detail", detail)).build();
    }

    @ServerExceptionMapper
    public Response turnLimit(TurnLimitReached e) {
        return detail(429, e.getMessage());
    }

    @ServerExceptionMapper
    public Response tooMany(TooManyRequestsException e) {
        return detail(429, e.getMessage());
    }

    /** The reference's {"detail": {"code": "chat_completed", "message": "Conversation has ended"}}. */
    @ServerExceptionMapper
    public Response conversationEnded(ConversationEndedException e) {
        return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("detail", Map.of("code", ConversationEndedException.CODE, "message", e.getMessage())))
                .build();
    }

    @ServerExceptionMapper
    public Response ruleViolation(DomainRuleViolation e) {
        return detail(Response.Status.BAD_REQUEST, e.getMessage());
    }

    /** A definition that cannot be saved or published: {"detail": {"is_valid": false, "errors": [...]}}. */
    @ServerExceptionMapper
    public Response invalidWorkflow(InvalidWorkflowException e) {
        return Response.status(e.conflict() ? 409 : 422).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("detail", ValidateWorkflowResponse.of(e.errors()))).build();
    }

    @ServerExceptionMapper
    public Response requestValidation(RequestValidationException e) {
        return unprocessable(e.errors());
    }

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e) {
        List<ValidationError> errors = new ArrayList<>();
        for (ConstraintViolation<?> violation : e.getConstraintViolations()) {
            String type = typeOf(violation);
            String msg = "missing".equals(type) ? "Field required" : violation.getMessage();
            errors.add(ValidationError.of(location(violation), msg, type,
                    violation.getInvalidValue() instanceof String || violation.getInvalidValue() instanceof Number
                            || violation.getInvalidValue() instanceof Boolean ? violation.getInvalidValue() : null));
        }
        return unprocessable(errors);
    }

    /** Wrong JSON types: loc ["body", field, ...]. */
    @ServerExceptionMapper(priority = 1)
    public Response mismatchedInput(MismatchedInputException e) {
        List<Object> loc = bodyPath(e);
        String expected = e.getTargetType() == null ? "value" : e.getTargetType().getSimpleName();
        String type = switch (expected) {
            case "Integer", "int", "Long", "long", "Short", "short" -> "int_parsing";
            case "Double", "double", "Float", "float", "BigDecimal" -> "float_parsing";
            case "Boolean", "boolean" -> "bool_parsing";
            case "String" -> "string_type";
            default -> loc.size() == 1 ? "model_attributes_type" : "type_error";
        };
        String msg = switch (type) {
            case "int_parsing" -> "Input should be a valid integer";
            case "float_parsing" -> "Input should be a valid number";
            case "bool_parsing" -> "Input should be a valid boolean";
            case "string_type" -> "Input should be a valid string";
            case "model_attributes_type" -> "Input should be a valid dictionary or object to extract fields from";
            default -> "Input should be a valid " + expected;
        };
        return unprocessable(List.of(ValidationError.of(loc, msg, type, null)));
    }

    /**
     * Malformed JSON: loc ["body"]. A value that is well-formed JSON but cannot be read as its field's type
     * (a number out of range, a number too long) is reported at that field.
     */
    @ServerExceptionMapper
    public Response malformedJson(JsonProcessingException e) {
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            Throwable cause = mapping.getCause() == null ? mapping : mapping.getCause();
            boolean number = cause instanceof InputCoercionException
                    || cause instanceof StreamConstraintsException;
            String detail = cause instanceof JsonProcessingException json && json.getOriginalMessage() != null
                    ? json.getOriginalMessage() : String.valueOf(cause.getMessage());
            return unprocessable(List.of(new ValidationError(bodyPath(mapping),
                    number ? "Input should be a valid number within range" : "Input could not be read",
                    number ? "number_out_of_range" : "value_error", null,
                    Map.of("error", detail.length() > 200 ? detail.substring(0, 200) + "..." : detail))));
        }
        return unprocessable(List.of(new ValidationError(List.of("body"), "JSON decode error", "json_invalid", null,
                Map.of("error", e.getOriginalMessage() == null ? "invalid JSON" : e.getOriginalMessage()))));
    }

    @ServerExceptionMapper
    public Response routeNotFound(NotFoundException e) {
        // JAX-RS reports an unconvertible path or query value as "not found"; it is a validation failure.
        RequestValidationException validation = causeOfType(e, RequestValidationException.class);
        return validation != null ? requestValidation(validation) : detail(Response.Status.NOT_FOUND, "Not Found");
    }

    /**
     * A body or an Accept the operation does not take: judged while the request is matched, before the authentication
     * filter could run. An anonymous request to an operation that needs credentials is told that first (401), so the
     * media type says nothing to a caller who may not call.
     */
    @ServerExceptionMapper
    public Response unsupportedMediaType(NotSupportedException e, HttpHeaders headers, UriInfo uri) {
        return anonymous(headers, uri) ? detail(Response.Status.UNAUTHORIZED, "Authorization header required")
                : detail(Response.Status.UNSUPPORTED_MEDIA_TYPE, "Unsupported Media Type");
    }

    @ServerExceptionMapper
    public Response notAcceptable(NotAcceptableException e, HttpHeaders headers, UriInfo uri) {
        return anonymous(headers, uri) ? detail(Response.Status.UNAUTHORIZED, "Authorization header required")
                : detail(Response.Status.NOT_ACCEPTABLE, "Not Acceptable");
    }

    private static boolean anonymous(HttpHeaders headers, UriInfo uri) {
        String path = uri.getPath().startsWith("/") ? uri.getPath() : "/" + uri.getPath();
        return blank(headers.getHeaderString("X-API-Key")) && blank(headers.getHeaderString("authorization"))
                && PublicPaths.needsCredentials(path);
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    @ServerExceptionMapper
    public Response methodNotAllowed(NotAllowedException e) {
        return detail(Response.Status.METHOD_NOT_ALLOWED, "Method Not Allowed");
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        Throwable cause = e.getCause();
        RequestValidationException validation = causeOfType(e, RequestValidationException.class);
        if (validation != null) {
            return requestValidation(validation);
        }
        if (cause instanceof JsonProcessingException json) {
            return cause instanceof MismatchedInputException mismatch ? mismatchedInput(mismatch) : malformedJson(json);
        }
        int status = e.getResponse() == null ? 500 : e.getResponse().getStatus();
        if (status >= 500) {
            return unexpected(e);
        }
        Response.StatusType type = Response.Status.fromStatusCode(status);
        return detail(status, type == null ? "Request failed" : type.getReasonPhrase());
    }

    /** How long after a database outage's warning its further failures are not logged again (at debug only). */
    static final long OUTAGE_QUIET_MILLIS = 60_000;
    /** Seconds a client is told to wait before trying again while the database is out of reach. */
    static final String RETRY_AFTER_SECONDS = "5";
    private static final AtomicLong OUTAGE_LOGGED_AT = new AtomicLong(Long.MIN_VALUE / 2);

    /**
     * The database out of reach (the persistence adapter says so with its own exception): not a fault of the request,
     * a 503 with Retry-After; warned about once a minute, the outage's further failures at debug.
     */
    @ServerExceptionMapper
    public Response databaseUnavailable(DatabaseUnavailableException e) {
        long now = System.currentTimeMillis();
        long last = OUTAGE_LOGGED_AT.get();
        if (now - last >= OUTAGE_QUIET_MILLIS && OUTAGE_LOGGED_AT.compareAndSet(last, now)) {
            LOG.warnf("The database is out of reach: requests answer 503 (%s); further failures of this outage"
                    + " are logged at debug for %d s", e.getCause(), OUTAGE_QUIET_MILLIS / 1000);
        } else {
            LOG.debugf("database out of reach: %s", e.getCause());
        }
        return Response.status(Response.Status.SERVICE_UNAVAILABLE).type(MediaType.APPLICATION_JSON)
                .header("Retry-After", RETRY_AFTER_SECONDS)
                .entity(new ErrorResponse("The service cannot reach its database right now: try again shortly"))
                .build();
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        DatabaseUnavailableException outage = causeOfType(e, DatabaseUnavailableException.class);
        if (outage != null) { // wrapped on its way here (a composite failure)
            return databaseUnavailable(outage);
        }
        String requestId = RequestCorrelation.current();
        String correlationId = requestId != null ? requestId : UUID.randomUUID().toString();
        LOG.errorf(e, "Unhandled failure (correlation id %s)", correlationId);
        return Response.status(500).type(MediaType.APPLICATION_JSON) // X-Request-Id carries the same id
                .entity(new ErrorResponse("Internal Server Error (correlation id " + correlationId + ")")).build();
    }

    public static Response detail(Response.StatusType status, String message) {
        return detail(status.getStatusCode(), message);
    }

    public static Response detail(int status, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(new ErrorResponse(message)).build();
    }

    public static Response unprocessable(List<ValidationError> errors) {
        return Response.status(422).type(MediaType.APPLICATION_JSON).entity(new HTTPValidationError(errors)).build();
    }

    private static <T extends Throwable> T causeOfType(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static List<Object> bodyPath(JsonMappingException e) {
        List<Object> loc = new ArrayList<>();
        loc.add("body");
        for (JsonMappingException.Reference ref : e.getPath()) {
            loc.add(ref.getFieldName() != null ? ref.getFieldName() : ref.getIndex());
        }
        return loc;
    }

    private static String typeOf(ConstraintViolation<?> violation) {
        String annotation = violation.getConstraintDescriptor().getAnnotation().annotationType().getSimpleName();
        return switch (annotation) {
            case "NotNull", "NotBlank", "NotEmpty" -> violation.getInvalidValue() == null ? "missing" : "string_too_short";
            case "Size" -> "string_length";
            case "Min", "DecimalMin", "Positive", "PositiveOrZero" -> "greater_than_equal";
            case "Max", "DecimalMax" -> "less_than_equal";
            case "Pattern" -> "string_pattern_mismatch";
            default -> "value_error";
        };
    }

    /**
     * Hibernate Validator paths look like method.parameter[.property...]. A parameter bound to a path,
     * query or header value is reported under that source; the request body under "body".
     */
    private static List<Object> location(ConstraintViolation<?> violation) {
        List<Object> loc = new ArrayList<>();
        Path.MethodNode method = null;
        for (Path.Node node : violation.getPropertyPath()) {
            if (node.getKind() == ElementKind.METHOD) {
                method = node.as(Path.MethodNode.class);
            } else if (node.getKind() == ElementKind.PARAMETER) {
                int index = node.as(Path.ParameterNode.class).getParameterIndex();
                loc.addAll(parameterSource(violation.getRootBeanClass(), method, index));
            } else if (node.getKind() == ElementKind.PROPERTY || node.getKind() == ElementKind.CONTAINER_ELEMENT) {
                if (loc.isEmpty()) {
                    loc.add("body");
                }
                if (node.getIndex() != null) {
                    loc.add(node.getIndex());
                }
                if (node.getName() != null && !node.getName().startsWith("<")) {
                    loc.add(toSnakeCase(node.getName()));
                }
            }
        }
        return loc.isEmpty() ? List.of("body") : loc;
    }

    /**
     * The JAX-RS source of a resource-method parameter. The class validated may be a generated
     * subclass whose overriding method has no annotations, so the whole hierarchy is searched.
     */
    private static List<Object> parameterSource(Class<?> type, Path.MethodNode node, int index) {
        for (Class<?> c = type; c != null && node != null; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals(node.getName()) && index < m.getParameterCount()
                        && List.of(m.getParameterTypes()).equals(node.getParameterTypes())) {
                    List<Object> loc = ParameterLocation.of(m.getParameterAnnotations()[index]);
                    if (loc != null) {
                        return loc;
                    }
                }
            }
        }
        return List.of("body");
    }

    static String toSnakeCase(String camel) {
        StringBuilder out = new StringBuilder(camel.length() + 4);
        for (char c : camel.toCharArray()) {
            if (Character.isUpperCase(c)) {
                out.append('_').append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
