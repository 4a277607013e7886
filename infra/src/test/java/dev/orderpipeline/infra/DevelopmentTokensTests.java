package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.SignedJWT;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The order-api image's {@code token} command: {@link DevelopmentTokens#main}. */
class DevelopmentTokensTests {

    private static final String KEY = "a development key of the tests, long enough for HS256";

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void printsAnAdministratorsTokenSignedWithTheKey() throws Exception {
        assertThat(run("--user", "ops", "--admin")).isZero();

        var token = SignedJWT.parse(out.toString(StandardCharsets.UTF_8).strip());
        assertThat(token.verify(new MACVerifier(KEY.getBytes(StandardCharsets.UTF_8))))
                .isTrue();
        assertThat(token.getJWTClaimsSet().getSubject()).isEqualTo("ops");
        assertThat(token.getJWTClaimsSet().getStringListClaim("roles")).containsExactly(DevelopmentTokens.ADMIN_ROLE);
        assertThat(token.getJWTClaimsSet().getIssuer()).isEqualTo(DevelopmentTokens.DEFAULT_ISSUER);
    }

    @Test
    void printsAUsersTokenWithoutRoles() throws Exception {
        assertThat(run("--user", "alice")).isZero();

        var token = SignedJWT.parse(out.toString(StandardCharsets.UTF_8).strip());
        assertThat(token.getJWTClaimsSet().getSubject()).isEqualTo("alice");
        assertThat(token.getJWTClaimsSet().getStringListClaim("roles")).isEmpty();
    }

    @Test
    void printsTheUsageAndNoTokenWithoutAUserOrWithAnUnknownOption() {
        for (var arguments : new String[][] {{}, {"--user"}, {"--user", " "}, {"--admin"}, {"--user", "a", "--x"}}) {
            out.reset();
            err.reset();
            assertThat(run(arguments)).as(String.join(" ", arguments)).isEqualTo(2);
            assertThat(out.size()).isZero();
            assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("usage: token --user USER-ID");
        }
    }

    private int run(String... arguments) {
        return DevelopmentTokens.run(
                arguments,
                KEY,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }
}
