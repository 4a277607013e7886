package dev.orderpipeline.api.web;

import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Resolves {@link Caller} parameters from the {@value #USER_HEADER} header. Until requests carry a verified token
 * the header is trusted as is; replacing this class is all it takes to change that.
 */
final class CallerArgumentResolver implements HandlerMethodArgumentResolver {

    static final String USER_HEADER = "X-User-Id";

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Caller.class;
    }

    @Override
    public Caller resolveArgument(
            MethodParameter parameter,
            @Nullable ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest,
            @Nullable WebDataBinderFactory binderFactory) {
        var header = webRequest.getHeader(USER_HEADER);
        if (header == null || header.isBlank()) {
            throw new CallerNotIdentifiedException("Header " + USER_HEADER + " is required and must not be blank");
        }
        var userId = header.strip();
        if (userId.length() > Caller.MAX_USER_ID_LENGTH) {
            throw new CallerNotIdentifiedException(
                    "Header " + USER_HEADER + " must be at most " + Caller.MAX_USER_ID_LENGTH + " characters");
        }
        return new Caller(userId);
    }

    static final class CallerNotIdentifiedException extends ProblemException {
        CallerNotIdentifiedException(String detail) {
            super(ProblemKind.MISSING_USER, detail);
        }
    }
}
