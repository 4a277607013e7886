package dev.orderpipeline.api.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Arrays;
import java.util.List;
import org.springframework.http.HttpMethod;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Refuses, before the handler runs and before a byte of the body is read, a request whose body the API will not
 * read:
 *
 * <ul>
 *   <li>a declared {@code Content-Length} over the limit (413), whether or not the handler takes a body; chunked
 *       bodies, which declare no length, are counted as they are read ({@link BoundedRequestBodyAdvice});
 *   <li>a {@code Content-Type} with a wildcard ({@code *}{@code /*}, {@code application/*}) on an endpoint that
 *       reads a body (415): it names no format to read, and Spring MVC fails on it with an error of its own.
 * </ul>
 */
final class RequestBodyGuard implements HandlerInterceptor {

    private final RequestLimits limits;

    RequestBodyGuard(RequestLimits limits) {
        this.limits = limits;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws HttpMediaTypeNotSupportedException {
        var declared = request.getContentLengthLong();
        if (declared > limits.maxBodySize().toBytes()) {
            throw new PayloadTooLargeException(
                    "The request body of " + declared + " bytes is larger than the "
                            + limits.maxBodySize().toBytes() + " bytes this API reads",
                    limits.maxBodySize());
        }
        var contentType = request.getContentType();
        if (contentType != null && readsBody(handler)) {
            MediaType type;
            try {
                type = MediaType.parseMediaType(contentType);
            } catch (InvalidMediaTypeException ex) {
                // Spring MVC answers an unparsable Content-Type itself, with the media types it supports
                return true;
            }
            if (type.isWildcardType() || type.isWildcardSubtype()) {
                throw new HttpMediaTypeNotSupportedException(
                        type, List.of(MediaType.APPLICATION_JSON), HttpMethod.valueOf(request.getMethod()));
            }
        }
        return true;
    }

    private static boolean readsBody(Object handler) {
        return handler instanceof HandlerMethod method
                && Arrays.stream(method.getMethodParameters())
                        .anyMatch(parameter -> parameter.hasParameterAnnotation(RequestBody.class));
    }
}
