package dev.orderpipeline.api;

import dev.orderpipeline.infra.DevelopmentTokens;

/**
 * {@code Authorization} header values for the tests, signed with the development key the test configuration gives
 * the API ({@code src/test/resources/application.properties}).
 */
public final class TestTokens {

    /** The header the tokens go in. */
    public static final String AUTHORIZATION = "Authorization";

    /** The subject of the administrator the test clients act as by default. */
    public static final String ADMIN = "test-admin";

    public static final DevelopmentTokens TOKENS = new DevelopmentTokens(DevelopmentTokens.DEFAULT_KEY);

    private TestTokens() {}

    /** {@code Bearer <token>} of a user without roles. */
    public static String bearer(String userId) {
        return "Bearer " + TOKENS.user(userId);
    }

    /** {@code Bearer <token>} of an administrator. */
    public static String adminBearer() {
        return "Bearer " + TOKENS.admin(ADMIN);
    }
}
