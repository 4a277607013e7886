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
 * so it must be one {@link Caller} accepts), and each name in the roles array claim ({@link
 * TokenProperties#rolesClaim()}) becomes an authority {@code ROLE_<NAME>} ({@code admin} gives {@code ROLE_ADMIN}).
 * A token without a usable subject is refused as invalid (401) here, before anything reads or writes with it,
 * rather than failing later in a controller or in the database.
 */
final class CallerTokenConverter implements Converter<Jwt, AbstractAuthenticationToken> {

    private static final Pattern ROLE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,63}");

    private final String rolesClaim;

    CallerTokenConverter(String rolesClaim) {
        this.rolesClaim = rolesClaim;
    }

    @Override
    public AbstractAuthenticationToken convert(Jwt jwt) {
        var subject = jwt.getSubject();
        if (subject == null) {
            throw new InvalidBearerTokenException("The token has no subject");
        }
        var problem = Caller.whyNotAUserId(subject);
        if (problem.isPresent()) {
            // the description goes back to the caller: it says what is wrong, never repeats the subject
            throw new InvalidBearerTokenException("The token's subject is not a user id: it " + problem.get());
        }
        return new JwtAuthenticationToken(jwt, authorities(jwt), subject);
    }

    /** Names that are not plain role names (or a claim that is not an array) grant nothing, and fail nothing. */
    private List<GrantedAuthority> authorities(Jwt jwt) {
        var authorities = new ArrayList<GrantedAuthority>();
        if (jwt.getClaims().get(rolesClaim) instanceof Collection<?> roles) {
            for (var role : roles) {
                if (role instanceof String name && ROLE_NAME.matcher(name).matches()) {
                    authorities.add(new SimpleGrantedAuthority("ROLE_" + name.toUpperCase(Locale.ROOT)));
                }
            }
        }
        return authorities;
    }
}
