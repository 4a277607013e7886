package dev.orderpipeline.api.security;

/**
 * Thrown at startup when tokens would be verified with an identity provider's keys but no audience is configured:
 * every application of the provider gets tokens signed with the same keys, so without the audience check a token
 * minted for any of them would be accepted here.
 */
final class MissingTokenAudienceException extends IllegalStateException {

    static final String AUDIENCES_PROPERTY = "spring.security.oauth2.resourceserver.jwt.audiences";

    private final String providerProperty;

    MissingTokenAudienceException(String providerProperty) {
        super(providerProperty + " is set but " + AUDIENCES_PROPERTY
                + " is not: tokens the identity provider issued for other applications would be accepted");
        this.providerProperty = providerProperty;
    }

    /** The identity provider property that is set, which makes the audience necessary. */
    String providerProperty() {
        return providerProperty;
    }
}
