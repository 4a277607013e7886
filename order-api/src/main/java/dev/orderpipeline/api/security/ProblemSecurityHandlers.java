package dev.orderpipeline.api.security;

import dev.orderpipeline.api.web.ProblemKind;
import dev.orderpipeline.api.web.ProblemWriter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.oauth2.server.resource.web.access.BearerTokenAccessDeniedHandler;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;

/**
 * Refusals as problem details: Spring Security's bearer handlers set the status and the RFC 6750 {@code
 * WWW-Authenticate} header ({@code Bearer}, with {@code error="invalid_token"} and a description when a token was
 * presented and rejected), then the body says the same with a stable type. A token that could not be checked at all
 * (the identity provider's keys unreachable) is the server's trouble, not the caller's: 503 with {@code Retry-After},
 * where Spring Security would let the exception become a 500.
 */
final class ProblemSecurityHandlers
        implements AuthenticationEntryPoint, AccessDeniedHandler, AuthenticationFailureHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemSecurityHandlers.class);

    /** Seconds a client should wait before retrying when the keys could not be read. */
    static final int RETRY_AFTER_SECONDS = 5;

    private final BearerTokenAuthenticationEntryPoint bearerEntryPoint = new BearerTokenAuthenticationEntryPoint();
    private final BearerTokenAccessDeniedHandler bearerAccessDenied = new BearerTokenAccessDeniedHandler();

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException ex)
            throws IOException {
        bearerEntryPoint.commence(request, response, ex);
        var problem = switch (response.getStatus()) {
            // more than one token, or a token in a place the API does not read it from
            case 400 ->
                ProblemKind.MALFORMED_REQUEST.problem(
                        "The request's bearer token cannot be used: " + reason(ex, "more than one token"));
            case 403 -> ProblemKind.FORBIDDEN.problem("The bearer token does not grant this request");
            default ->
                ex instanceof OAuth2AuthenticationException
                        ? ProblemKind.INVALID_TOKEN.problem(
                                "The bearer token was rejected: " + reason(ex, "it does not verify"))
                        : ProblemKind.AUTHENTICATION_REQUIRED.problem(
                                "This endpoint needs a bearer token: Authorization: Bearer <JWT>");
        };
        ProblemWriter.write(request, response, problem);
    }

    @Override
    public void onAuthenticationFailure(
            HttpServletRequest request, HttpServletResponse response, AuthenticationException ex) throws IOException {
        if (ex instanceof AuthenticationServiceException) {
            log.warn("Could not verify a bearer token for {} {}", request.getMethod(), request.getRequestURI(), ex);
            response.setHeader(HttpHeaders.RETRY_AFTER, Integer.toString(RETRY_AFTER_SECONDS));
            ProblemWriter.write(
                    request,
                    response,
                    ProblemKind.AUTHENTICATION_UNAVAILABLE.problem(
                            "The bearer token could not be verified now (the signing keys are unavailable); retry"
                                    + " later"));
            return;
        }
        commence(request, response, ex);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException ex)
            throws IOException {
        bearerAccessDenied.handle(request, response, ex);
        ProblemWriter.write(
                request,
                response,
                ProblemKind.FORBIDDEN.problem("This endpoint needs the role " + SecurityConfiguration.ADMIN_ROLE));
    }

    private static String reason(AuthenticationException ex, String fallback) {
        if (ex instanceof OAuth2AuthenticationException oauth) {
            var description = oauth.getError().getDescription();
            if (description != null && !description.isBlank()) {
                return description;
            }
        }
        return fallback;
    }
}
