/**
 * Who may call what. The API is an OAuth2 resource server: every request that needs a caller carries a JWT bearer
 * token, verified with the keys of a JWK set URI in production or with a development key in the local run and the
 * tests; the token's subject is the user id ({@link dev.orderpipeline.api.web.Caller}) and its {@code roles} claim
 * grants {@code admin}. The access rules of every endpoint live in {@link
 * dev.orderpipeline.api.security.SecurityConfiguration}; refusals are problem details like every other error.
 */
@NullMarked
package dev.orderpipeline.api.security;

import org.jspecify.annotations.NullMarked;
