package dev.orderpipeline.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.SignedJWT;
import dev.orderpipeline.infra.DevelopmentTokens;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TokenCommandTests {

    @Test
    void printsOnlyATokenOfTheUserSignedWithTheDevelopmentKey() throws Exception {
        var out = new StringWriter();

        var exit = command(out).execute("--user", "alice", "--key", DevelopmentTokens.DEFAULT_KEY);

        assertThat(exit).isZero();
        var jwt = SignedJWT.parse(out.toString().strip());
        assertThat(jwt.verify(new MACVerifier(DevelopmentTokens.DEFAULT_KEY.getBytes(StandardCharsets.UTF_8))))
                .isTrue();
        var claims = jwt.getJWTClaimsSet();
        assertThat(claims.getSubject()).isEqualTo("alice");
        assertThat(claims.getIssuer()).isEqualTo(DevelopmentTokens.DEFAULT_ISSUER);
        assertThat(claims.getStringListClaim("roles")).isEmpty();
        assertThat(claims.getExpirationTime().toInstant())
                .isBetween(
                        Instant.now().plus(Duration.ofMinutes(59)),
                        Instant.now().plus(Duration.ofMinutes(61)));
    }

    @Test
    void addsTheAdminRoleAndTheAskedLifetime() throws Exception {
        var out = new StringWriter();

        var exit = command(out).execute("--user", "ops", "--admin", "--ttl", "12h");

        assertThat(exit).isZero();
        var claims = SignedJWT.parse(out.toString().strip()).getJWTClaimsSet();
        assertThat(claims.getStringListClaim("roles")).containsExactly("admin");
        assertThat(claims.getExpirationTime().toInstant())
                .isBetween(
                        Instant.now().plus(Duration.ofHours(11)), Instant.now().plus(Duration.ofHours(13)));
    }

    @Test
    void refusesWhatTheApiWouldRefuse() {
        assertThat(command(new StringWriter()).execute("--user", " alice")).isEqualTo(2);
        assertThat(command(new StringWriter()).execute("--user", "alice", "--ttl", "soon"))
                .isEqualTo(2);
        assertThat(command(new StringWriter()).execute("--user", "alice", "--key", "short"))
                .isEqualTo(2);
    }

    @Test
    void readsShortDurationsOnly() {
        assertThat(TokenCommand.parseTtl("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(TokenCommand.parseTtl("30m")).isEqualTo(Duration.ofMinutes(30));
        assertThat(TokenCommand.parseTtl("2d")).isEqualTo(Duration.ofDays(2));
        assertThat(TokenCommand.parseTtl("PT1H")).isNull();
        assertThat(TokenCommand.parseTtl("soon")).isNull();
    }

    private static CommandLine command(StringWriter out) {
        return new CommandLine(new TokenCommand())
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(new StringWriter()));
    }
}
