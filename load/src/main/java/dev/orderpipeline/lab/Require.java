package dev.orderpipeline.lab;

import java.time.Duration;
import java.util.Collection;

/** The checks the settings records make on their values, each failing with the value's name in the message. */
public final class Require {

    private Require() {}

    public static void positive(String name, long value) {
        check(value > 0, name + " must be positive: " + value);
    }

    public static void positive(String name, Duration value) {
        check(value.isPositive(), name + " must be positive: " + value);
    }

    public static void notNegative(String name, long value) {
        check(value >= 0, name + " must not be negative: " + value);
    }

    public static void notNegative(String name, Duration value) {
        check(!value.isNegative(), name + " must not be negative: " + value);
    }

    public static void notEmpty(String name, Collection<?> values) {
        check(!values.isEmpty(), "at least one " + name + " is needed");
    }

    public static void check(boolean holds, String message) {
        if (!holds) {
            throw new IllegalArgumentException(message);
        }
    }
}
