package dev.orderpipeline.api.security;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

/**
 * Spring Security's {@link DefaultBearerTokenResolver}, with a fast path for the request every client sends: an
 * {@code Authorization} header {@code Bearer <token>} whose token is well formed ({@code [A-Za-z0-9-._~+/]+=*}, the
 * default resolver's expression) is read without the regular expression, which was 2.2 % of the API's CPU per
 * checkout in a profile. Everything else (no header, another scheme, a malformed token) goes to the default resolver,
 * so that its answers, null or the same errors, stay the default's.
 */
final class BearerHeaderTokenResolver implements BearerTokenResolver {

    private static final String SCHEME = "bearer ";

    private final BearerTokenResolver resolver = new DefaultBearerTokenResolver();

    @Override
    public @Nullable String resolve(HttpServletRequest request) {
        var authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization != null && isWellFormed(authorization)) {
            return authorization.substring(SCHEME.length());
        }
        return resolver.resolve(request);
    }

    /** {@code ^Bearer (?<token>[a-zA-Z0-9-._~+/]+=*)$}, the scheme in any case (ASCII), as the default matches it. */
    static boolean isWellFormed(String authorization) {
        var length = authorization.length();
        if (length <= SCHEME.length()) {
            return false;
        }
        for (var i = 0; i < SCHEME.length(); i++) {
            var c = authorization.charAt(i);
            var expected = SCHEME.charAt(i);
            if (c != expected && !(c >= 'A' && c <= 'Z' && (char) (c + ('a' - 'A')) == expected)) {
                return false;
            }
        }
        var i = SCHEME.length();
        while (i < length && isTokenCharacter(authorization.charAt(i))) {
            i++;
        }
        if (i == SCHEME.length()) {
            return false;
        }
        while (i < length && authorization.charAt(i) == '=') {
            i++;
        }
        return i == length;
    }

    private static boolean isTokenCharacter(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '.'
                || c == '_'
                || c == '~'
                || c == '+'
                || c == '/';
    }
}
