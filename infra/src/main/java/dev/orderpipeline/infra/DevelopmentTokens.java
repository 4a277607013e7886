package dev.orderpipeline.infra;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Mints bearer tokens that order-api accepts when it runs with a development key (the local run, the lab's own
 * stack, the tests): HS256 JWTs whose subject is the user id and whose {@code roles} claim lists the caller's roles
 * ({@code admin} for product management). Production verifies tokens of a real issuer through
 * a JWK set URI instead, and never knows this key.
 */
public final class DevelopmentTokens {

    /**
     * The key the local run, the lab and the tests share. Public by design: anyone can mint tokens with it, so an API
     * that verifies with it must never hold real data.
     */
    public static final String DEFAULT_KEY = "order-pipeline-development-key-not-a-secret-never-use-in-production";

    /** The issuer of development tokens, which order-api checks when it verifies with a development key. */
    public static final String DEFAULT_ISSUER = "order-pipeline-development";

    /** Where order-api reads its development key from: the property, or the environment variable beside it. */
    public static final String KEY_PROPERTY = "orderpipeline.security.development-key";

    public static final String KEY_ENVIRONMENT_VARIABLE = "ORDERPIPELINE_SECURITY_DEVELOPMENT_KEY";

    /** The role that may manage products. */
    public static final String ADMIN_ROLE = "admin";

    /** How long a token lives unless a caller asks otherwise. */
    public static final Duration DEFAULT_TTL = Duration.ofHours(1);

    /** HS256 needs a key of at least 256 bits. */
    public static final int MIN_KEY_BYTES = 32;

    private final MACSigner signer;
    private final String issuer;
    private final Clock clock;

    /**
     * Prints one token on standard output: {@code --user USER-ID [--admin]}, signed with {@link #configuredKey()}. The
     * order-api image runs it as its {@code token} command, so that a user with Docker alone can call the API of the
     * compose stack ({@code docker compose run --rm --no-deps order-api token --user alice}); {@code bin/lab token}
     * is the same with more options. It needs nothing but this class and Nimbus, which the API's image holds.
     */
    public static void main(String[] args) {
        int status = run(args, configuredKey(), System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** {@link #main}: prints a token signed with {@code key} and answers 0, or prints the usage and answers 2. */
    static int run(String[] args, String key, PrintStream out, PrintStream err) {
        String user = null;
        boolean admin = false;
        boolean understood = true;
        for (int i = 0; i < args.length && understood; i++) {
            if (args[i].equals("--admin")) {
                admin = true;
            } else if (args[i].equals("--user") && i + 1 < args.length) {
                user = args[++i];
            } else {
                understood = false;
            }
        }
        if (!understood || user == null || user.isBlank()) {
            err.println("usage: token --user USER-ID [--admin]  (signed with $" + KEY_ENVIRONMENT_VARIABLE
                    + ", else the development key; valid for " + DEFAULT_TTL.toMinutes() + " minutes)");
            return 2;
        }
        var tokens = new DevelopmentTokens(key);
        out.println(admin ? tokens.admin(user) : tokens.user(user));
        return 0;
    }

    public DevelopmentTokens(String key) {
        this(key, DEFAULT_ISSUER, Clock.systemUTC());
    }

    public DevelopmentTokens(String key, String issuer, Clock clock) {
        Objects.requireNonNull(key, "key");
        if (key.getBytes(StandardCharsets.UTF_8).length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("a development key needs at least " + MIN_KEY_BYTES + " bytes");
        }
        try {
            this.signer = new MACSigner(key.getBytes(StandardCharsets.UTF_8));
        } catch (JOSEException ex) {
            throw new IllegalArgumentException("not a usable HS256 key: " + ex.getMessage(), ex);
        }
        this.issuer = Objects.requireNonNull(issuer, "issuer");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The development key of this environment: {@value #KEY_ENVIRONMENT_VARIABLE} when set, else {@link
     * #DEFAULT_KEY}. The local launcher hands it to order-api, and the lab signs with it.
     */
    public static String configuredKey() {
        var key = System.getenv(KEY_ENVIRONMENT_VARIABLE);
        return key == null || key.isBlank() ? DEFAULT_KEY : key;
    }

    /** A token of a user without roles, valid for {@link #DEFAULT_TTL}. */
    public String user(String userId) {
        return mint(userId, List.of(), DEFAULT_TTL);
    }

    /** A token of an administrator, valid for {@link #DEFAULT_TTL}. */
    public String admin(String userId) {
        return mint(userId, List.of(ADMIN_ROLE), DEFAULT_TTL);
    }

    /** A token of {@code subject} with {@code roles}, valid from now for {@code ttl} (negative: already expired). */
    public String mint(String subject, List<String> roles, Duration ttl) {
        var now = clock.instant();
        return mint(subject, roles, now, now.plus(ttl));
    }

    /** A token valid from {@code issuedAt} to {@code expiresAt}. */
    public String mint(String subject, List<String> roles, Instant issuedAt, Instant expiresAt) {
        Objects.requireNonNull(subject, "subject");
        var claims = new JWTClaimsSet.Builder()
                .issuer(issuer)
                .subject(subject)
                .issueTime(Date.from(issuedAt))
                .notBeforeTime(Date.from(issuedAt))
                .expirationTime(Date.from(expiresAt))
                .jwtID(UUID.randomUUID().toString())
                .claim("roles", List.copyOf(roles))
                .build();
        var jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.HS256)
                        .type(JOSEObjectType.JWT)
                        .build(),
                claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException ex) {
            throw new IllegalStateException("could not sign a development token", ex);
        }
        return jwt.serialize();
    }
}
