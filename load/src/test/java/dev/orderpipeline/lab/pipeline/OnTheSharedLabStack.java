package dev.orderpipeline.lab.pipeline;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * An end-to-end class that runs on the {@link SharedLabStack}, one such class at a time: each reads the database's
 * counters as a difference over its own run, so two on the stack at once would read each other's. Failsafe runs the
 * end-to-end classes side by side; the classes with stacks of their own run beside these.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(SharedLabStack.class)
@ResourceLock("dev.orderpipeline.lab.pipeline.SharedLabStack")
public @interface OnTheSharedLabStack {}
