package dev.orderpipeline.api.web;

import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Resolves {@link Caller} parameters from the authenticated principal: the subject of the verified bearer token,
 * checked to be a user id when the token was accepted. The security rules let no request without a token reach an
 * endpoint that takes a caller, so a missing principal here is a missing rule: a bug, answered 500.
 */
final class CallerArgumentResolver implements HandlerMethodArgumentResolver {

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
        var principal = webRequest.getUserPrincipal();
        if (principal == null) {
            throw new IllegalStateException("An endpoint that takes a Caller was reached without authentication: "
                    + parameter.getExecutable().toGenericString());
        }
        return new Caller(principal.getName());
    }
}
