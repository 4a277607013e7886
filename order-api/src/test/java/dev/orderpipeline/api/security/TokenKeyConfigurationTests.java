package dev.orderpipeline.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import dev.orderpipeline.infra.DevelopmentTokens;
import jakarta.servlet.Filter;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.servlet.OAuth2ResourceServerAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/** Which key verifies tokens, and that the API refuses to start with none rather than run open. */
class TokenKeyConfigurationTests {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    SecurityAutoConfiguration.class,
                    ServletWebSecurityAutoConfiguration.class,
                    OAuth2ResourceServerAutoConfiguration.class))
            .withUserConfiguration(Tokens.class, SecurityConfiguration.class);

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(TokenProperties.class)
    static class Tokens {}

    @Test
    void refusesToStartWithoutAKeyToVerifyTokensWith() {
        runner.withPropertyValues("orderpipeline.security.development-key=").run(context -> {
            var failure = context.getStartupFailure();
            assertThat(failure).isNotNull();
            assertThat(NestedExceptionUtils.getMostSpecificCause(failure)).isInstanceOf(MissingTokenKeyException.class);
            var analysis = new MissingTokenKeyFailureAnalyzer().analyze(failure);
            assertThat(analysis).isNotNull();
            assertThat(analysis.getAction())
                    .contains(
                            "spring.security.oauth2.resourceserver.jwt.jwk-set-uri",
                            DevelopmentKeyCondition.KEY_PROPERTY);
        });
    }

    @Test
    void refusesADevelopmentKeyTooShortForHs256() {
        runner.withPropertyValues("orderpipeline.security.development-key=short")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .hasMessageContaining("at least 32 bytes"));
    }

    @Test
    void verifiesWithTheDevelopmentKeyWhenNoIdentityProviderIsConfigured() {
        runner.withPropertyValues(DevelopmentTokens.KEY_PROPERTY + "=" + DevelopmentTokens.DEFAULT_KEY)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(SecurityFilterChain.class);
                    assertThat(context).hasBean("developmentJwtDecoder");
                    var jwt = context.getBean(JwtDecoder.class)
                            .decode(new DevelopmentTokens(DevelopmentTokens.DEFAULT_KEY).user("alice"));
                    assertThat(jwt.getSubject()).isEqualTo("alice");
                });
    }

    @Test
    void answers503NotA500WhenTheIdentityProvidersKeysCannotBeRead() {
        // nothing listens on port 1: the decoder cannot fetch the keys to check the signature with
        runner.withPropertyValues(
                        "spring.security.oauth2.resourceserver.jwt.jwk-set-uri=http://127.0.0.1:1/jwks",
                        "spring.security.oauth2.resourceserver.jwt.audiences=order-api")
                .run(context -> {
                    var mvc = MockMvcBuilders.webAppContextSetup(context)
                            .addFilters(context.getBean("springSecurityFilterChain", Filter.class))
                            .build();
                    var encoder = Base64.getUrlEncoder().withoutPadding();
                    var token =
                            encoder.encodeToString("{\"alg\":\"RS256\",\"kid\":\"k\"}".getBytes(StandardCharsets.UTF_8))
                                    + "."
                                    + encoder.encodeToString(
                                            "{\"sub\":\"alice\",\"exp\":4102444800}".getBytes(StandardCharsets.UTF_8))
                                    + "."
                                    + encoder.encodeToString(new byte[256]);

                    var response = mvc.perform(
                                    get("/api/orders/" + UUID.randomUUID()).header("Authorization", "Bearer " + token))
                            .andReturn()
                            .getResponse();

                    assertThat(response.getStatus()).isEqualTo(503);
                    assertThat(response.getHeader("Retry-After")).isEqualTo("5");
                    assertThat(response.getContentType()).startsWith("application/problem+json");
                    assertThat(response.getContentAsString())
                            .contains("urn:order-pipeline:problem:authentication-unavailable");
                });
    }

    @Test
    void ignoresTheDevelopmentKeyOnceAJwkSetUriIsConfigured() {
        runner.withPropertyValues(
                        DevelopmentTokens.KEY_PROPERTY + "=" + DevelopmentTokens.DEFAULT_KEY,
                        "spring.security.oauth2.resourceserver.jwt.jwk-set-uri=https://issuer.example.test/jwks",
                        "spring.security.oauth2.resourceserver.jwt.audiences=order-api")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(JwtDecoder.class);
                    assertThat(context).doesNotHaveBean("developmentJwtDecoder");
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "spring.security.oauth2.resourceserver.jwt.jwk-set-uri=https://issuer.example.test/jwks|",
                "spring.security.oauth2.resourceserver.jwt.issuer-uri=https://issuer.example.test/|",
                "spring.security.oauth2.resourceserver.jwt.jwk-set-uri=https://issuer.example.test/jwks"
                        + "|spring.security.oauth2.resourceserver.jwt.audiences= ",
            })
    void refusesToStartWithAnIdentityProviderButNoAudience(String provider, @Nullable String audiences) {
        var properties = audiences == null ? new String[] {provider} : new String[] {provider, audiences};
        runner.withPropertyValues(properties).run(context -> {
            var failure = context.getStartupFailure();
            assertThat(failure).isNotNull();
            assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
                    .isInstanceOf(MissingTokenAudienceException.class);
            var analysis = new MissingTokenAudienceFailureAnalyzer().analyze(failure);
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains(provider.substring(0, provider.indexOf('=')));
            assertThat(analysis.getAction())
                    .contains(
                            "spring.security.oauth2.resourceserver.jwt.audiences",
                            "SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_AUDIENCES");
        });
    }

    @Test
    void startsWithAnIdentityProviderAndAnAudience() {
        runner.withPropertyValues(
                        "spring.security.oauth2.resourceserver.jwt.issuer-uri=https://issuer.example.test/",
                        "spring.security.oauth2.resourceserver.jwt.jwk-set-uri=https://issuer.example.test/jwks",
                        "spring.security.oauth2.resourceserver.jwt.audiences=order-api,order-api-staging")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(SecurityFilterChain.class));
    }

    @Test
    void refusesABlankRolesClaimAndANegativeCacheSizeNamingBoth() {
        runner.withPropertyValues(
                        DevelopmentTokens.KEY_PROPERTY + "=" + DevelopmentTokens.DEFAULT_KEY,
                        "orderpipeline.security.roles-claim= ",
                        "orderpipeline.security.verified-tokens=-1")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOf(BindValidationException.class)
                        .hasMessageContaining("Binding validation errors on orderpipeline.security")
                        .hasMessageContaining("origin \"orderpipeline.security.roles-claim\"")
                        .hasMessageContaining("origin \"orderpipeline.security.verified-tokens\""));
    }
}
