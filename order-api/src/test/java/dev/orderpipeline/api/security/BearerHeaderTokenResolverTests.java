package dev.orderpipeline.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

/** The resolver's fast path answers exactly as Spring Security's default resolver does. */
class BearerHeaderTokenResolverTests {

    private final BearerTokenResolver fast = new BearerHeaderTokenResolver();
    private final BearerTokenResolver standard = new DefaultBearerTokenResolver();

    private static final List<String> PIECES = List.of(
            "Bearer ",
            "bearer ",
            "BEARER ",
            "bEaReR ",
            "Bearer",
            "Basic ",
            " ",
            "  ",
            "\t",
            "\n",
            "a",
            "Z",
            "9",
            "-",
            ".",
            "_",
            "~",
            "+",
            "/",
            "=",
            "==",
            "%",
            "*",
            ",",
            "é",
            "\u212a",
            "eyJhbGciOiJIUzI1NiJ9");

    @Test
    void answersAsTheDefaultResolverForEveryHeader() {
        TextSamples.of(7, 50_000, 5, PIECES).forEach(this::assertSameAnswer);
    }

    @Test
    void readsWellFormedTokensAndRefusesMalformedOnesAsTheDefaultDoes() {
        for (var header : List.of(
                "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln",
                "bearer abc==",
                "Bearer abc=d",
                "Bearer ",
                "Bearer  abc",
                "Bearer abc ",
                "Bearer abc\n",
                "Bearerabc",
                "Basic dXNlcjpwdw==",
                "")) {
            assertSameAnswer(header);
        }
        assertSameAnswer(null);
        assertThat(fast.resolve(request("Bearer a.b-c_d~e+f/g=="))).isEqualTo("a.b-c_d~e+f/g==");
    }

    private void assertSameAnswer(@Nullable String header) {
        var expected = answer(standard, header);
        assertThat(answer(fast, header)).as("Authorization: %s", header).isEqualTo(expected);
    }

    private static String answer(BearerTokenResolver resolver, @Nullable String header) {
        try {
            return "token " + resolver.resolve(request(header));
        } catch (OAuth2AuthenticationException ex) {
            return "refused " + ex.getError().getErrorCode() + " "
                    + ex.getError().getDescription();
        }
    }

    private static MockHttpServletRequest request(@Nullable String header) {
        var request = new MockHttpServletRequest("POST", "/api/orders/x/checkout");
        if (header != null) {
            request.addHeader("Authorization", header);
        }
        return request;
    }
}
