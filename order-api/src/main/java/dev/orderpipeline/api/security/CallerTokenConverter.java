package dev.orderpipeline.api.security;

import dev.orderpipeline.api.web.Caller;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/**
 * Turns a verified token into the caller: the subject is the user id (the same ids {@code orders.user_id} holds,
 * so it must be one {@link Caller} accepts), and each name in the {@code roles} array claim becomes an authority
 * {@code ROLE_<NAME>} ({@code admin} gives {@code ROLE_ADMIN}). A token without a usable subject is refused as
 * invalid (401) rather than failing later in a controller.
 */
final class CallerTokenConverter implements Converter<Jwt, AbstractAuthenticationToken> {

    static final String ROLES_CLAIM = "roles";

    private static final Pattern ROLE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,63}");

    @Override
    public AbstractAuthenticationToken convert(Jwt jwt) {
        var subject = jwt.getSubject();
        if (subject == null || subject.isBlank()) {
            throw new InvalidBearerTokenException("The token has no subject");
        }
        if (subject.length() > Caller.MAX_USER_ID_LENGTH || !subject.equals(subject.strip())) {
            throw new InvalidBearerTokenException("The token's subject is not a user id: at most "
                    + Caller.MAX_USER_ID_LENGTH + " characters without surrounding whitespace");
        }
        return new JwtAuthenticationToken(jwt, authorities(jwt), subject);
    }

    /** Names that are not plain role names (or a claim that is not an array) grant nothing, and fail nothing. */
    private static List<GrantedAuthority> authorities(Jwt jwt) {
        var authorities = new ArrayList<GrantedAuthority>();
        if (jwt.getClaims().get(ROLES_CLAIM) instanceof Collection<?> roles) {
            for (var role : roles) {
                if (role instanceof String name && ROLE_NAME.matcher(name).matches()) {
                    authorities.add(new SimpleGrantedAuthority("ROLE_" + name.toUpperCase(Locale.ROOT)));
                }
            }
        }
        return authorities;
    }
}
