package dev.orderpipeline.api.security;

import dev.orderpipeline.api.web.ProblemKind;
import dev.orderpipeline.api.web.ProblemWriter;
import jakarta.servlet.DispatcherType;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.MappedJwtClaimSetConverter;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.util.StringUtils;

/**
 * The API as an OAuth2 resource server, and who may call what:
 *
 * <ul>
 *   <li>public: reading a product ({@code GET /api/products/{id}}: the catalogue), the API description and Swagger
 *       UI, the actuator's health (probes), info and Prometheus (scraping) endpoints, and the RFC 9728 resource
 *       metadata Spring Security serves itself ({@code /.well-known/oauth-protected-resource}, named in {@code
 *       WWW-Authenticate}). The actuator is served on the management port only ({@code management.server.port}),
 *       whose server runs this same chain; on the API's port its paths map nothing and answer 404;
 *   <li>an authenticated user: orders and their checkout, which are the caller's own ({@code /api/orders/**});
 *   <li>the role {@value #ADMIN_ROLE}: creating products and the rest of the actuator;
 *   <li>anything else needs a token, so a new endpoint is never public by accident (the authorization matrix test
 *       fails for an endpoint it has no expectation for).
 * </ul>
 *
 * Tokens are verified by the decoder Spring Boot builds from {@code spring.security.oauth2.resourceserver.jwt.*}
 * (production: a JWK set URI, with the audiences it requires, which must be configured, and the issuer when that is
 * configured) or, when none of those is set, with the development key of {@link TokenProperties}. Stateless: no
 * session, no CSRF token (a bearer token is not sent by the browser on its own, so there is no cross-site request to
 * forge).
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

    /** The role that manages products and runs the lab. */
    public static final String ADMIN_ROLE = "admin";

    private static final String ADMIN = "ADMIN";

    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);

    @Bean
    SecurityFilterChain apiSecurity(
            HttpSecurity http, ObjectProvider<JwtDecoder> decoders, TokenProperties tokens, Environment environment)
            throws Exception {
        requireAudiencesWithIdentityProvider(environment);
        var decoder = decoders.getIfAvailable();
        if (decoder == null) {
            throw new MissingTokenKeyException();
        }
        if (tokens.developmentKey() != null && !(decoder instanceof DevelopmentJwtDecoder)) {
            log.warn("Ignoring orderpipeline.security.development-key: tokens are verified with the identity provider");
        }
        var problems = new ProblemSecurityHandlers();
        http.authorizeHttpRequests(requests -> requests
                        // the request was authorized on its way in; an error page or async completion is not a new one
                        .dispatcherTypeMatchers(DispatcherType.ERROR, DispatcherType.ASYNC)
                        .permitAll()
                        .requestMatchers(
                                "/actuator/health", "/actuator/health/**", "/actuator/info", "/actuator/prometheus")
                        .permitAll()
                        .requestMatchers(
                                "/v3/api-docs",
                                "/v3/api-docs.yaml",
                                "/v3/api-docs/**",
                                "/swagger-ui.html",
                                "/swagger-ui/**")
                        .permitAll()
                        // Spring Boot's error page: the error dispatch above reaches it, a request of its own does not
                        .requestMatchers("/error")
                        .denyAll()
                        .requestMatchers(HttpMethod.GET, "/api/products/*")
                        .permitAll()
                        .requestMatchers(HttpMethod.HEAD, "/api/products/*")
                        .permitAll()
                        .requestMatchers("/api/products", "/api/products/**")
                        .hasRole(ADMIN)
                        .requestMatchers("/api/orders", "/api/orders/**")
                        .authenticated()
                        .requestMatchers("/actuator/**")
                        .hasRole(ADMIN)
                        .anyRequest()
                        .authenticated())
                .oauth2ResourceServer(server -> server.bearerTokenResolver(new BearerHeaderTokenResolver())
                        .jwt(jwt -> jwt.decoder(verifiedOnce(decoder, tokens))
                                .jwtAuthenticationConverter(new CallerTokenConverter(tokens.rolesClaim())))
                        .authenticationEntryPoint(problems)
                        .accessDeniedHandler(problems)
                        .withObjectPostProcessor(new ObjectPostProcessor<BearerTokenAuthenticationFilter>() {
                            @Override
                            public <F extends BearerTokenAuthenticationFilter> F postProcess(F filter) {
                                filter.setAuthenticationFailureHandler(problems);
                                return filter;
                            }
                        }))
                .exceptionHandling(exceptions ->
                        exceptions.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .csrf(csrf -> csrf.disable())
                .requestCache(cache -> cache.disable())
                .logout(logout -> logout.disable())
                .formLogin(form -> form.disable())
                .httpBasic(basic -> basic.disable())
                .anonymous(Customizer.withDefaults());
        return http.build();
    }

    /**
     * No observation of each security filter, of the authentication and of the authorization: with them every request
     * paid for about fifteen nested observations (about 7 % of the API's CPU per checkout in a profile). The request as
     * a whole is still observed ({@code http.server.requests}), with its outcome.
     */
    @Bean
    SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }

    private static JwtDecoder verifiedOnce(JwtDecoder decoder, TokenProperties tokens) {
        return tokens.verifiedTokens() == 0
                ? decoder
                : new VerifiedTokenCache(
                        decoder, tokens.verifiedTokens(), tokens.verifiedTokenMaxAge(), Clock.systemUTC());
    }

    /**
     * Refuses to start when an identity provider verifies the tokens but no audience is configured: Spring Boot then
     * checks the audience of none, and a token the provider issued for another of its applications would be
     * accepted here. The development key needs none: only this pipeline's tools sign with it.
     */
    private static void requireAudiencesWithIdentityProvider(Environment environment) {
        var provider = DevelopmentKeyCondition.PRODUCTION_PROPERTIES.stream()
                .filter(property -> StringUtils.hasText(environment.getProperty(property)))
                .findFirst();
        if (provider.isEmpty()) {
            return;
        }
        var audiences = Binder.get(environment)
                .bind(MissingTokenAudienceException.AUDIENCES_PROPERTY, Bindable.listOf(String.class))
                .orElse(List.of());
        if (audiences.stream().noneMatch(StringUtils::hasText)) {
            throw new MissingTokenAudienceException(provider.get());
        }
    }

    /** Verifies tokens with the development key when no identity provider is configured. */
    @Bean
    @Conditional(DevelopmentKeyCondition.class)
    JwtDecoder developmentJwtDecoder(TokenProperties tokens) {
        var key = tokens.developmentKey();
        if (key == null) {
            throw new MissingTokenKeyException();
        }
        log.warn(
                "Bearer tokens are verified with a development key (issuer {}): for local runs and tests only",
                tokens.developmentIssuer());
        var decoder = NimbusJwtDecoder.withSecretKey(
                        new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"))
                .macAlgorithm(MacAlgorithm.HS256)
                .build();
        decoder.setJwtValidator(JwtValidators.createDefaultWithIssuer(tokens.developmentIssuer()));
        // the development issuer is a name, not a URL: read as one, it is not first tried as a URL, which throws
        decoder.setClaimSetConverter(
                MappedJwtClaimSetConverter.withDefaults(Map.of(JwtClaimNames.ISS, String::valueOf)));
        return new DevelopmentJwtDecoder(decoder);
    }

    /**
     * Spring Security's firewall as it is by default, with the rules for header and parameter names and header values
     * checked without a regular expression ({@link RequestText}: the same rules).
     */
    @Bean
    HttpFirewall httpFirewall() {
        var firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(RequestText::isAllowedName);
        firewall.setAllowedHeaderValues(RequestText::isAllowedValue);
        firewall.setAllowedParameterNames(RequestText::isAllowedName);
        return firewall;
    }

    /**
     * A request the firewall refuses before any filter runs (an encoded slash or a control character in the path, a
     * header value it will not pass on) is a malformed request, answered like every other.
     */
    @Bean
    RequestRejectedHandler problemRequestRejectedHandler() {
        return (request, response, ex) -> {
            log.debug("Rejected {} {}: {}", request.getMethod(), request.getRequestURI(), ex.getMessage());
            ProblemWriter.write(
                    request, response, ProblemKind.MALFORMED_REQUEST.problem("The request cannot be accepted as sent"));
        };
    }

    /** Marks the development decoder, so that a configuration with both keys can say which one it ignores. */
    private record DevelopmentJwtDecoder(JwtDecoder delegate) implements JwtDecoder {

        @Override
        public org.springframework.security.oauth2.jwt.Jwt decode(String token) {
            return delegate.decode(token);
        }
    }
}
