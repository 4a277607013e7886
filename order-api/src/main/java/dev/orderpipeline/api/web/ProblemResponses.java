package dev.orderpipeline.api.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The kinds of problem an endpoint answers with, for its API description: {@link ApiDescriptionConfiguration} turns
 * them into one {@code application/problem+json} response per status, with an example of each kind whose type,
 * title and status come from the {@link ProblemKind} itself, so the description cannot drift from the wire.
 */
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface ProblemResponses {

    ProblemKind[] value();
}
