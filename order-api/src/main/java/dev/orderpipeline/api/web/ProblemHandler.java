package dev.orderpipeline.api.web;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.context.MessageSourceResolvable;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.validation.FieldError;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.ServletRequestBindingException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;

/**
 * Turns every error into an RFC 9457 problem detail with a stable {@link ProblemKind}: the API's own {@link
 * ProblemException}s as they are, Spring MVC's exceptions (unknown path, wrong method or media type, unreadable
 * body, bean validation...) re-typed, a database that cannot answer now into a 503 {@link
 * ProblemKind#DATABASE_UNAVAILABLE} with {@code Retry-After} (whichever endpoint met it, so that no endpoint has to
 * remember), and anything else unexpected into a 500 that is logged, because it is a bug.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    private final RetryAfterSetting retryAfter;

    ProblemHandler(RetryAfterSetting retryAfter) {
        this.retryAfter = retryAfter;
    }

    /**
     * The server could not parse the query string (or a form body): a parameter without a name, an escape that
     * decodes to invalid UTF-8. It says so only when a parameter is first read, which is inside the handler.
     */
    @ExceptionHandler(InvalidParameterException.class)
    @Nullable
    ResponseEntity<Object> handleUnparsableParameters(InvalidParameterException ex, WebRequest request) {
        var problem = ProblemKind.MALFORMED_REQUEST.problem("The query string or form parameters cannot be parsed");
        return handleExceptionInternal(ex, problem, new HttpHeaders(), HttpStatus.BAD_REQUEST, request);
    }

    /**
     * Spring Security's firewall refused a parameter (a name or value with control characters). It checks them
     * only when they are read, and a handler that reads every parameter (the checkout, looking for the lab's) does
     * so after the filter chain: the same 400 as the firewall's refusals in the chain, not a 500.
     */
    @ExceptionHandler(RequestRejectedException.class)
    @Nullable
    ResponseEntity<Object> handleRejectedParameters(RequestRejectedException ex, WebRequest request) {
        log.debug("Rejected {}: {}", describe(request), ex.getMessage());
        var problem = ProblemKind.MALFORMED_REQUEST.problem("The request cannot be accepted as sent");
        return handleExceptionInternal(ex, problem, new HttpHeaders(), HttpStatus.BAD_REQUEST, request);
    }

    /**
     * Everything no other handler took. A database failure usually arrives here as Spring's {@code
     * DataAccessException} or {@code TransactionException}, but is told by its causes, so one wrapped by anything
     * else is recognised too.
     */
    @ExceptionHandler(Exception.class)
    @Nullable
    ResponseEntity<Object> handleUnexpected(Exception ex, WebRequest request) {
        if (DatabaseFailures.isUnavailable(ex)) {
            DatabaseFailures.logFailure(log, ex, "The database failed answering {}", describe(request));
            var unavailable = new DatabaseUnavailableException(
                    "The database cannot answer now; retry later", retryAfter.retryAfter(), ex);
            return handleExceptionInternal(
                    unavailable, null, unavailable.getHeaders(), unavailable.getStatusCode(), request);
        }
        log.error("Unexpected error answering {}", describe(request), ex);
        var problem = ProblemKind.INTERNAL_ERROR.problem("The request failed unexpectedly; the error has been logged");
        return handleExceptionInternal(ex, problem, new HttpHeaders(), HttpStatus.INTERNAL_SERVER_ERROR, request);
    }

    @Override
    protected @Nullable ResponseEntity<Object> handleExceptionInternal(
            Exception ex, @Nullable Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        var problem = body instanceof ProblemDetail detail
                ? detail
                // Spring passes no body for exceptions that carry their own (ours included)
                : ex instanceof ErrorResponse response
                        ? response.updateAndGetBody(getMessageSource(), LocaleContextHolder.getLocale())
                        : ProblemDetail.forStatus(statusCode);
        // ours come typed; Spring MVC's own exceptions get a kind here
        var type = problem.getType();
        if (type == null || type.toString().equals("about:blank")) {
            retype(ex, problem, statusCode);
        }
        // A problem is always problem+json, whatever the request's Accept says: negotiating it would leave the
        // client with an empty error when Accept cannot be parsed or names only other types.
        var problemHeaders = new HttpHeaders();
        problemHeaders.putAll(headers);
        problemHeaders.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return super.handleExceptionInternal(ex, problem, problemHeaders, statusCode, request);
    }

    @Override
    protected @Nullable ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        // the body grew past the limit while the JSON reader consumed it; the reader wraps what the stream threw
        var tooLarge = cause(ex, PayloadTooLargeException.class);
        if (tooLarge != null) {
            return handleExceptionInternal(tooLarge, null, tooLarge.getHeaders(), tooLarge.getStatusCode(), request);
        }
        return super.handleHttpMessageNotReadable(ex, headers, status, request);
    }

    private void retype(Exception ex, ProblemDetail problem, HttpStatusCode status) {
        switch (ex) {
            case MethodArgumentNotValidException invalid -> {
                var errors = invalid.getBindingResult().getFieldErrors().stream()
                        .map(ProblemHandler::fieldError)
                        .sorted(Comparator.comparing((Map<String, String> error) -> error.get("field"))
                                .thenComparing(error -> error.get("message")))
                        .toList();
                var globalErrors = invalid.getBindingResult().getGlobalErrors().stream()
                        .map(error -> Map.of("field", error.getObjectName(), "message", message(error)))
                        .toList();
                validationFailed(problem, concat(errors, globalErrors));
            }
            case HandlerMethodValidationException invalid -> {
                var errors = invalid.getParameterValidationResults().stream()
                        .flatMap(result -> result.getResolvableErrors().stream()
                                .map(error -> Map.of(
                                        "field",
                                        Objects.requireNonNullElse(
                                                result.getMethodParameter().getParameterName(), "parameter"),
                                        "message",
                                        message(error))))
                        .toList();
                validationFailed(problem, errors);
            }
            case HttpMessageNotReadableException unreadable -> {
                ProblemKind.MALFORMED_REQUEST.stamp(problem);
                unreadable(unreadable, problem);
            }
            case TypeMismatchException mismatch -> {
                ProblemKind.MALFORMED_REQUEST.stamp(problem);
                var name = Objects.requireNonNullElse(mismatch.getPropertyName(), "parameter");
                var type = mismatch.getRequiredType();
                problem.setDetail("Parameter '" + name + "' must be "
                        + (type == null ? "of another type" : "a valid " + type.getSimpleName()));
                problem.setProperty("parameter", name);
            }
            case ServletRequestBindingException binding -> ProblemKind.MALFORMED_REQUEST.stamp(problem);
            case NoResourceFoundException notFound -> {
                ProblemKind.NOT_FOUND.stamp(problem);
                problem.setDetail("No endpoint " + notFound.getHttpMethod() + " /" + notFound.getResourcePath());
            }
            case NoHandlerFoundException notFound -> {
                ProblemKind.NOT_FOUND.stamp(problem);
                problem.setDetail("No endpoint " + notFound.getHttpMethod() + " " + notFound.getRequestURL());
            }
            case HttpRequestMethodNotSupportedException notAllowed -> ProblemKind.METHOD_NOT_ALLOWED.stamp(problem);
            case HttpMediaTypeNotSupportedException unsupported -> ProblemKind.UNSUPPORTED_MEDIA_TYPE.stamp(problem);
            case HttpMediaTypeNotAcceptableException notAcceptable -> ProblemKind.NOT_ACCEPTABLE.stamp(problem);
            default -> {
                if (status.is5xxServerError()) {
                    log.error("Request failed with {}", status, ex);
                    ProblemKind.INTERNAL_ERROR.stamp(problem);
                    return;
                }
                // Spring MVC failures without a kind of their own keep a stable type derived from their status.
                ProblemKind.stampStatus(problem, status.value());
            }
        }
    }

    private static void validationFailed(ProblemDetail problem, List<Map<String, String>> errors) {
        ProblemKind.VALIDATION_FAILED.stamp(problem);
        problem.setDetail(
                errors.size() == 1
                        ? "1 field is invalid: " + errors.getFirst().get("field")
                        : errors.size() + " fields are invalid: "
                                + errors.stream()
                                        .map(error -> error.get("field"))
                                        .distinct()
                                        .collect(Collectors.joining(", ")));
        problem.setProperty("errors", errors);
    }

    private static void unreadable(HttpMessageNotReadableException ex, ProblemDetail problem) {
        var jackson = cause(ex, JacksonException.class);
        if (jackson == null) {
            problem.setDetail("Request body is missing or unreadable");
        } else if (jackson instanceof StreamConstraintsException) {
            problem.setDetail("Request body exceeds the limits of this API's JSON reader (nesting depth, number or"
                    + " string length)");
        } else if (jackson instanceof StreamReadException && !(jackson instanceof InputCoercionException)) {
            problem.setDetail("Request body is not valid JSON");
        } else {
            var field = path(jackson);
            if (field.isEmpty()) {
                problem.setDetail("Request body does not have the expected structure");
            } else {
                problem.setDetail("Field '" + field + "' has a value of the wrong type or format");
                problem.setProperty("field", field);
            }
        }
    }

    private static String path(JacksonException ex) {
        var path = new StringBuilder();
        for (var reference : ex.getPath()) {
            if (reference.getPropertyName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static <T extends Throwable> @Nullable T cause(Throwable ex, Class<T> type) {
        for (Throwable current = ex; current != null; current = current.getCause()) {
            if (type.isInstance(current)) {
                return type.cast(current);
            }
            if (current.getCause() == current) {
                break;
            }
        }
        return null;
    }

    private static Map<String, String> fieldError(FieldError error) {
        return Map.of("field", error.getField(), "message", message(error));
    }

    private static String message(MessageSourceResolvable error) {
        return Objects.requireNonNullElse(error.getDefaultMessage(), "is invalid");
    }

    private static <T> List<T> concat(List<T> first, List<T> second) {
        return second.isEmpty()
                ? first
                : java.util.stream.Stream.concat(first.stream(), second.stream())
                        .toList();
    }

    private static String describe(WebRequest request) {
        if (request instanceof ServletWebRequest servlet) {
            return servlet.getHttpMethod() + " " + servlet.getRequest().getRequestURI();
        }
        return request.getDescription(false);
    }
}
